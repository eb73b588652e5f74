import { AppError, RULE_PREVIEW_LIMIT, type RuleActionType } from "@hearth/contracts";
import { isStatementTimeout } from "@hearth/service-kit";
import type { FinanceDb, FinanceTx } from "../db";
import type { RuleDefinition } from "./rule-definition";
import { changingActionsSql, compileRule, type ApplyOptions, type CompiledRule, type EntryKey } from "./rule-sql";

/** How many entries the compiled rule matches, and how many of them at least one action would change. */
async function countChanges(db: FinanceDb | FinanceTx, compiled: CompiledRule): Promise<{ matched: number; modified: number }> {
  const [counts] = await db.$queryRaw<{ matched: number; modified: number }[]>`
    SELECT count(*)::int AS matched, count(*) FILTER (WHERE ${compiled.anyChange})::int AS modified
      FROM entries e WHERE ${compiled.inScope}`;
  return { matched: counts?.matched ?? 0, modified: counts?.modified ?? 0 };
}

/**
 * Applies a rule inside `tx`: each action one set-based statement over the matched entries.
 * Answers how many entries it matched and how many at least one action changed (counted before
 * the actions run, by the same conditions the actions use).
 */
export async function applyRule(tx: FinanceTx, rule: RuleDefinition, options: ApplyOptions): Promise<{ matched: number; modified: number }> {
  const compiled = compileRule(rule, options);
  const { matched, modified } = await countChanges(tx, compiled);
  // The ledger's triggers see what the actions change (entries, entry tags) and move the family's ledger version.
  if (modified > 0) for (const action of compiled.actions) await action.executor.execute(tx, action.value, compiled.scope);
  return { matched, modified };
}

/**
 * The run's matches cut into slices of the (date, id) order, each at most `chunkRows` entries
 * (one when they all fit), their number rounded up to a multiple of `lanes` so the lanes finish
 * together (slices of a handful of entries can come out one or two fewer).
 * Answers each slice's last key, in order, and how many matched.
 */
export async function chunkBoundaries(
  db: FinanceDb | FinanceTx,
  rule: RuleDefinition,
  options: ApplyOptions,
  { chunkRows, lanes }: { chunkRows: number; lanes: number },
): Promise<{ matched: number; ends: EntryKey[] }> {
  const compiled = compileRule(rule, options);
  // The total is a window over the same rows, not a join to a count: joined, a planner that
  // expected one match put the count on the inner side and read it again for every match
  // (14,000 matches took 15.9 s).
  const rows = await db.$queryRaw<{ date: string; id: string; total: number }[]>`
    WITH ranked AS (
      SELECT e.date, e.id, row_number() OVER (ORDER BY e.date, e.id) AS rn, count(*) OVER ()::numeric AS total
        FROM entries e WHERE ${compiled.inScope}),
    sized AS (
      SELECT r.*, ceil(r.total / CASE WHEN r.total <= ${chunkRows}::numeric THEN 1
                                      ELSE ${lanes}::numeric * ceil(r.total / (${chunkRows}::numeric * ${lanes}::numeric)) END) AS size
        FROM ranked r)
    SELECT to_char(s.date, 'YYYY-MM-DD') AS date, s.id, s.total::int AS total FROM sized s
     WHERE s.rn % s.size = 0 OR s.rn = s.total
     ORDER BY s.rn`;
  return { matched: rows[0]?.total ?? 0, ends: rows.map(({ date, id }) => ({ date, id })) };
}

/** How many entries a rule matches, without running it (the queued count of a new run). */
export async function countMatches(db: FinanceDb | FinanceTx, rule: RuleDefinition): Promise<number> {
  const compiled = compileRule(rule, { ignoreLocks: false });
  const [row] = await db.$queryRaw<{ matched: number }[]>`SELECT count(*)::int AS matched FROM entries e WHERE ${compiled.inScope}`;
  return row?.matched ?? 0;
}

/** How long a request may spend evaluating a rule over the family's transactions (a preview, an apply's count). */
export const RULE_EVALUATION_TIMEOUT_MS = 20_000;

/**
 * Runs `work` in a transaction whose statements stop after RULE_EVALUATION_TIMEOUT_MS: a rule too
 * costly for the family's ledger is a 422 that says so, not a database busy for minutes.
 */
export async function withinEvaluationTime<T>(db: FinanceDb, work: (tx: FinanceTx) => Promise<T>): Promise<T> {
  try {
    return await db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${RULE_EVALUATION_TIMEOUT_MS}`);
        return work(tx);
      },
      { timeout: RULE_EVALUATION_TIMEOUT_MS + 5_000 },
    );
  } catch (err) {
    if (isStatementTimeout(err)) throw AppError.validation(["The rule's conditions take too long to evaluate over this family's transactions: simplify them"]);
    throw err;
  }
}

export interface PreviewRow {
  id: string;
  date: Date;
  name: string;
  amount_cents: bigint;
  currency: string;
  account_id: string;
  account_name: string;
  account_type: string;
  changes: RuleActionType[];
}

/** What applying the rule would do, read only: counts, and the newest entries it would change with the actions that would change each. */
export async function previewRule(db: FinanceDb | FinanceTx, rule: RuleDefinition, options: ApplyOptions) {
  const compiled = compileRule(rule, options);
  const counts = await countChanges(db, compiled);
  const rows = await db.$queryRaw<PreviewRow[]>`
    SELECT e.id, e.date, e.name, e.amount_cents, e.currency, a.id AS account_id, a.name AS account_name, a.account_type::text AS account_type,
           ${changingActionsSql(compiled)} AS changes
      FROM entries e JOIN accounts a ON a.id = e.account_id
     WHERE ${compiled.inScope} AND (${compiled.anyChange})
     ORDER BY e.date DESC, e.id DESC
     LIMIT ${RULE_PREVIEW_LIMIT}`;
  return { ...counts, rows };
}
