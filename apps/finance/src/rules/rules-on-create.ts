import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { matchSql } from "./condition-sql";
import { definitionOf, RULE_INCLUDE, type RuleDefinition } from "./rule-definition";
import { applyRule } from "./rule-engine";

/** How long deciding which rules match a new transaction may take. */
const CREATE_TIME_MATCH_TIMEOUT_MS = 2_000;

/** Runs `work` so that a failure inside it undoes only its own changes, not the caller's transaction. */
async function isolated<T>(tx: FinanceTx, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const savepoint = Prisma.raw(name);
  await tx.$executeRaw`SAVEPOINT ${savepoint}`;
  try {
    const result = await work();
    await tx.$executeRaw`RELEASE SAVEPOINT ${savepoint}`;
    return result;
  } catch {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT ${savepoint}`;
    return undefined;
  }
}

/** The rule's match, or null for a stored rule this version cannot compile (it is skipped, not a failed create). */
function matchOrNull(rule: RuleDefinition): Prisma.Sql | null {
  try {
    return matchSql(rule);
  } catch {
    return null;
  }
}

/**
 * Applies the family's active rules to a transaction just created, inside its transaction, so the
 * create answer shows their effect. Which rules match is asked once; the matching ones then run
 * in order (oldest first), each on this entry alone and respecting its locked attributes. A rule
 * that fails is skipped without failing the create.
 */
export async function applyRulesToNewTransaction(tx: FinanceTx, familyId: string, entryId: string): Promise<void> {
  const rows = await tx.rule.findMany({
    where: { familyId, active: true, resourceType: "transaction" },
    include: RULE_INCLUDE,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const candidates = rows.map(definitionOf).flatMap((rule) => {
    const match = matchOrNull(rule);
    return match ? [{ rule, match }] : [];
  });
  if (candidates.length === 0) return;
  // Bounded: a family's rules must not hold up its every create (past the bound they are skipped, as a failing rule is).
  const found = await isolated(tx, "rules_match", async () => {
    await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${CREATE_TIME_MATCH_TIMEOUT_MS}`);
    const matched = await tx.$queryRaw<{ matched: boolean[] }[]>`
      SELECT ARRAY[${Prisma.join(candidates.map(({ match }) => Prisma.sql`EXISTS (SELECT 1 FROM entries e WHERE e.id = ${entryId}::uuid AND ${match})`))}]::boolean[] AS matched`;
    await tx.$executeRawUnsafe("SET LOCAL statement_timeout = DEFAULT");
    return matched;
  });
  const matched = found?.[0]?.matched ?? [];
  for (const [index, { rule }] of candidates.entries()) {
    if (matched[index]) await isolated(tx, "rule_apply", () => applyRule(tx, rule, { ignoreLocks: false, entryId }));
  }
}

/** How long one rule may take over an import's entries before it is skipped. */
const IMPORT_RULE_TIMEOUT_MS = 20_000;

/**
 * Applies the family's active rules to the entries an import just wrote, inside the publishing
 * transaction: each rule once, set-based over those entries (oldest rule first), respecting
 * locked attributes. A rule that fails or runs past its time is skipped, not the import.
 */
export async function applyRulesToImportedEntries(tx: FinanceTx, familyId: string, importId: string): Promise<number> {
  const rows = await tx.rule.findMany({
    where: { familyId, active: true, resourceType: "transaction" },
    include: RULE_INCLUDE,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  let applied = 0;
  for (const rule of rows.map(definitionOf)) {
    if (!matchOrNull(rule)) continue;
    const done = await isolated(tx, "import_rule", async () => {
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${IMPORT_RULE_TIMEOUT_MS}`);
      const outcome = await applyRule(tx, rule, { ignoreLocks: false, importId });
      await tx.$executeRawUnsafe("SET LOCAL statement_timeout = DEFAULT");
      return outcome;
    });
    if (done) applied += 1;
  }
  return applied;
}
