import { RULE_ACTION_REFERENCES, RULE_CONDITION_REFERENCES } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { lockFamilyBudgets, lockFamilyRules } from "./family-lock-queries";

type ReferencedKind = "Category" | "Merchant" | "Tag";

/** The rule action and condition types whose value is the id of a record of `kind`. */
function referenceTypes(kind: ReferencedKind): string[] {
  return [...Object.entries(RULE_ACTION_REFERENCES), ...Object.entries(RULE_CONDITION_REFERENCES)].filter(([, named]) => named === kind).map(([type]) => type);
}

/**
 * The ids (lower-cased text) of `kind` that the family's rules name in an action or a condition,
 * sub-conditions included (they hang under their compound, without a rule_id of their own).
 * Rules hold ids as text, no foreign key: a record they name is in use.
 */
function ruleReferences(familyId: string, kind: ReferencedKind): Prisma.Sql {
  const types = referenceTypes(kind);
  return Prisma.sql`
    SELECT lower(a.value) AS value FROM rules r JOIN rule_actions a ON a.rule_id = r.id
     WHERE r.family_id = ${familyId}::uuid AND a.action_type = ANY(${types}::text[]) AND a.value IS NOT NULL
    UNION ALL
    SELECT lower(c.value) FROM rules r JOIN rule_conditions c ON c.rule_id = r.id
     WHERE r.family_id = ${familyId}::uuid AND c.condition_type = ANY(${types}::text[]) AND c.value IS NOT NULL
    UNION ALL
    SELECT lower(s.value) FROM rules r JOIN rule_conditions c ON c.rule_id = r.id JOIN rule_conditions s ON s.parent_id = c.id
     WHERE r.family_id = ${familyId}::uuid AND s.condition_type = ANY(${types}::text[]) AND s.value IS NOT NULL`;
}

/**
 * Removes the records an import made beyond its accounts and entries (call after those are
 * gone, in the revert's transaction): its rules, recurring transactions, budgets and the budget
 * lines it wrote unless a person changed them after `completedAt` (the import's completion),
 * then its securities, tags, merchants and categories unless something outside the import uses
 * them by now; what stays is the family's own (its import id cleared). What the import found by
 * name (or ticker, or period) never carried its id and is left as it is. Answers the accounts
 * outside the import whose holdings lost prices it stored, with the first day they lost.
 */
export async function removeImportCatalog(
  tx: FinanceTx,
  familyId: string,
  importId: string,
  completedAt: Date,
): Promise<{ account_id: string; first: Date }[]> {
  const made = Prisma.sql`family_id = ${familyId}::uuid AND import_id = ${importId}::uuid`;
  // Rules and budgets change under these family locks (rule-repository, budget-repository): the
  // rules' references read below, and the budgets' lines, stay as read until this revert commits.
  await lockFamilyRules(tx, familyId);
  await lockFamilyBudgets(tx, familyId);
  // The candidates locked first: a request assigning one of them meanwhile either committed before
  // (the NOT EXISTS checks below, each a statement of its own, see its entry) or waits for this
  // revert and finds the record gone; never an assignment wiped after it succeeded.
  for (const table of ["categories", "tags", "merchants", "securities"] as const) {
    await tx.$queryRaw`SELECT id FROM ${Prisma.raw(table)} WHERE ${made} ORDER BY id FOR UPDATE`;
  }

  // What a person changed after the import completed is theirs now (kept, below): a rule or a
  // recurring transaction edited since, a budget or a line budgeted since.
  const untouched = Prisma.sql`updated_at <= ${completedAt}`;
  await tx.$executeRaw`DELETE FROM rules WHERE ${made} AND ${untouched}`;
  await tx.$executeRaw`DELETE FROM recurring_transactions WHERE ${made} AND ${untouched}`;
  await tx.$executeRaw`
    DELETE FROM budgets b WHERE b.family_id = ${familyId}::uuid AND b.import_id = ${importId}::uuid AND b.updated_at <= ${completedAt}
       AND NOT EXISTS (SELECT 1 FROM budget_categories bc WHERE bc.budget_id = b.id AND bc.updated_at > ${completedAt}
                                                          AND (bc.budgeted_spending_cents <> 0 OR bc.rollover_enabled))`;
  await tx.$executeRaw`DELETE FROM budget_categories WHERE ${made} AND ${untouched}`;

  // The prices a SureImport wrote from its holdings are on securities it made (a family's own
  // security never takes them): those no one recorded again since are its own and go. Accounts
  // outside the import holding such a security were valued at them: they are answered for a sync.
  const repriced = await tx.$queryRaw<{ account_id: string; first: Date }[]>`
    WITH gone AS (
      DELETE FROM security_prices p USING securities s
       WHERE s.family_id = ${familyId}::uuid AND s.import_id = ${importId}::uuid AND p.security_id = s.id AND p.updated_at <= ${completedAt}
      RETURNING p.security_id, p.date)
    SELECT e.account_id::text AS account_id, min(gone.date) AS first
      FROM gone JOIN trades t ON t.security_id = gone.security_id JOIN entries e ON e.id = t.entry_id
     GROUP BY e.account_id`;
  // Trades restrict a security's removal, and prices recorded since are a person's. Holdings follow
  // from trades alone: with none left they are stale (the queued syncs drop them) and go with it.
  await tx.$executeRaw`
    DELETE FROM securities s WHERE s.family_id = ${familyId}::uuid AND s.import_id = ${importId}::uuid
       AND NOT EXISTS (SELECT 1 FROM trades t WHERE t.security_id = s.id)
       AND NOT EXISTS (SELECT 1 FROM security_prices p WHERE p.security_id = s.id)`;

  await tx.$executeRaw`
    WITH referenced AS (${ruleReferences(familyId, "Tag")})
    DELETE FROM tags g WHERE g.family_id = ${familyId}::uuid AND g.import_id = ${importId}::uuid
       AND NOT EXISTS (SELECT 1 FROM entry_tags et WHERE et.tag_id = g.id)
       AND NOT EXISTS (SELECT 1 FROM referenced WHERE referenced.value = g.id::text)`;

  // A merchant's recurring transactions would go with it (cascade): one of them keeps it.
  await tx.$executeRaw`
    WITH referenced AS (${ruleReferences(familyId, "Merchant")})
    DELETE FROM merchants m WHERE m.family_id = ${familyId}::uuid AND m.import_id = ${importId}::uuid
       AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.family_id = ${familyId}::uuid AND e.merchant_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM recurring_transactions r WHERE r.merchant_id = m.id)
       AND NOT EXISTS (SELECT 1 FROM referenced WHERE referenced.value = m.id::text)`;

  // A budget line at zero without rollover is only the line every category gets in every budget
  // (it goes with the category); one a person set is a use. A category stays with a subcategory
  // that stays (the family's own, or one in use), so the subcategory keeps its parent.
  await tx.$executeRaw`
    WITH referenced AS (${ruleReferences(familyId, "Category")}),
    made AS (SELECT id FROM categories WHERE ${made}),
    used AS (
      SELECT made.id FROM made
       WHERE EXISTS (SELECT 1 FROM entries e WHERE e.family_id = ${familyId}::uuid AND e.category_id = made.id)
          OR EXISTS (SELECT 1 FROM budget_categories bc WHERE bc.family_id = ${familyId}::uuid AND bc.category_id = made.id
                                                        AND (bc.budgeted_spending_cents <> 0 OR bc.rollover_enabled))
          OR EXISTS (SELECT 1 FROM referenced WHERE referenced.value = made.id::text)),
    kept AS (
      SELECT id FROM used
      UNION
      SELECT child.parent_id FROM categories child
       WHERE child.family_id = ${familyId}::uuid AND child.parent_id IN (SELECT id FROM made)
         AND (child.import_id IS DISTINCT FROM ${importId}::uuid OR child.id IN (SELECT id FROM used)))
    DELETE FROM categories c USING made WHERE c.id = made.id AND NOT EXISTS (SELECT 1 FROM kept WHERE kept.id = c.id)`;

  for (const table of ["securities", "tags", "merchants", "categories", "rules", "recurring_transactions", "budgets", "budget_categories"] as const) {
    await tx.$executeRaw`UPDATE ${Prisma.raw(table)} SET import_id = NULL WHERE ${made}`;
  }
  return repriced;
}
