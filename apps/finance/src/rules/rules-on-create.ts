import type { FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { matchSql } from "./condition-sql";
import { definitionOf, type RuleDefinition } from "./rule-definition";
import { applyRule } from "./rule-engine-queries";
import { activeTransactionRules, entryMatches, isolated, withStatementTimeout } from "./rules-on-create-queries";

/** How long deciding which rules match a new transaction may take. */
const CREATE_TIME_MATCH_TIMEOUT_MS = 2_000;

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
  const rows = await activeTransactionRules(tx, familyId);
  const candidates = rows.map(definitionOf).flatMap((rule) => {
    const match = matchOrNull(rule);
    return match ? [{ rule, match }] : [];
  });
  if (candidates.length === 0) return;
  // Bounded: a family's rules must not hold up its every create (past the bound they are skipped, as a failing rule is).
  const matches = candidates.map(({ match }) => match);
  const matchAll = () => entryMatches(tx, entryId, matches);
  const matched = (await isolated(tx, "rules_match", () => withStatementTimeout(tx, CREATE_TIME_MATCH_TIMEOUT_MS, matchAll))) ?? [];
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
  const rows = await activeTransactionRules(tx, familyId);
  let applied = 0;
  for (const rule of rows.map(definitionOf)) {
    if (!matchOrNull(rule)) continue;
    const done = await isolated(tx, "import_rule", () =>
      withStatementTimeout(tx, IMPORT_RULE_TIMEOUT_MS, () => applyRule(tx, rule, { ignoreLocks: false, importId })),
    );
    if (done) applied += 1;
  }
  return applied;
}
