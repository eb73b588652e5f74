import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { addDays } from "../ledger/dates";
import { dayPatternCtes } from "./day-pattern-sql";
import { monthsBefore } from "./next-expected-date";
import { TRANSFER_KINDS_SQL, daysInMonthSql, identityKeySql, nextExpectedDateSql } from "./recurring-sql";

/** Sure's identifier looks at the last 3 months, wants 3 occurrences and the last within 45 days. */
export const LOOKBACK_MONTHS = 3;
export const MIN_OCCURRENCES = 3;
export const RECENT_DAYS = 45;
/** Sure's update_manual_recurring_transactions looks 6 months back for a manual row's occurrences. */
export const MANUAL_LOOKBACK_MONTHS = 6;

/** The family's entries since `since` on one side of a transfer whose kind is no transfer kind. */
function kindlessTransferHalves(familyId: string, since: string, side: "inflow_entry_id" | "outflow_entry_id"): Prisma.Sql {
  return Prisma.sql`SELECT x.id FROM transfers t JOIN entries x ON x.id = t.${Prisma.raw(side)}
     WHERE t.family_id = ${familyId}::uuid AND x.date >= ${since}::date AND (x.transaction_kind IS NULL OR x.transaction_kind NOT IN ${TRANSFER_KINDS_SQL})`;
}

export interface IdentifyResult {
  /** Patterns found (Sure's return value). */
  patterns: number;
  /** Rows created or changed; a manual row with the same identity is left alone. */
  written: number;
}

/**
 * Sure's RecurringTransaction::Identifier#identify_recurring_patterns, as one statement: over
 * the family's transactions of the last 3 months that are no half of a transfer, groups of one
 * account, merchant (or name, when there is no merchant), amount and currency with at least 3
 * occurrences, the last within 45 days, on a steady day of the month, become automatic recurring
 * transactions. An automatic row found again gets the new day, dates and count (its status
 * stays, as Sure keeps it); a manual row is never touched here. Counted and grouped in
 * PostgreSQL over the (family, kind, date) index: no transaction reaches JavaScript.
 */
export async function identifyPatterns(tx: FinanceTx, familyId: string, today: string): Promise<IdentifyResult> {
  const since = monthsBefore(today, LOOKBACK_MONTHS);
  const recent = addDays(today, -RECENT_DAYS);
  const [result] = await tx.$queryRaw<{ patterns: bigint; written: bigint }[]>`
    WITH hist AS (
      SELECT e.account_id, e.merchant_id, CASE WHEN e.merchant_id IS NULL THEN e.name END COLLATE "C" AS name, e.amount_cents, e.currency,
             EXTRACT(DAY FROM e.date)::int - 1 AS d0, count(*)::int AS c, max(e.date) AS last_date
        FROM entries e
       WHERE e.family_id = ${familyId}::uuid AND e.kind = 'transaction' AND e.date >= ${since}::date
         AND (e.transaction_kind IS NULL OR e.transaction_kind NOT IN ${TRANSFER_KINDS_SQL})
         AND e.account_id IN (SELECT a.id FROM accounts a WHERE a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion')
         -- A transfer's half that carries no transfer kind (an imported pair) is still one. Such
         -- halves are few or none, so the list stays a small hashed set, never a join per entry.
         AND e.id NOT IN (${kindlessTransferHalves(familyId, since, "inflow_entry_id")} UNION ALL ${kindlessTransferHalves(familyId, since, "outflow_entry_id")})
       GROUP BY e.account_id, e.merchant_id, 3, e.amount_cents, e.currency, EXTRACT(DAY FROM e.date)
    ),
    qh AS (
      SELECT dense_rank() OVER (ORDER BY account_id, merchant_id, name, amount_cents, currency) AS gid, totals.*
        FROM (SELECT hist.*, sum(c) OVER k AS n, max(last_date) OVER k AS group_last
                FROM hist WINDOW k AS (PARTITION BY account_id, merchant_id, name, amount_cents, currency)) totals
       WHERE n >= ${MIN_OCCURRENCES} AND group_last >= ${recent}::date
    ),
    ${dayPatternCtes(["account_id", "merchant_id", "name", "amount_cents", "currency", "n", "group_last"])},
    found AS (
      SELECT account_id, merchant_id, name, amount_cents, currency, n::int AS n, group_last AS last_date, expected_day FROM day_pattern WHERE clustered
    ),
    written AS (
      INSERT INTO recurring_transactions AS r (id, family_id, account_id, merchant_id, name, amount_cents, currency, expected_day_of_month,
                                               last_occurrence_date, next_expected_date, status, occurrence_count, manual, identity_key, created_at, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, f.account_id, f.merchant_id, f.name, f.amount_cents, f.currency, f.expected_day,
             f.last_date, ${nextExpectedDateSql(Prisma.sql`f.last_date`, Prisma.sql`f.expected_day`)}, 'active', f.n, false, ${identityKeySql("f")}, now(), now()
        FROM found f
      ON CONFLICT (family_id, identity_key) DO UPDATE
         SET expected_day_of_month = EXCLUDED.expected_day_of_month, last_occurrence_date = EXCLUDED.last_occurrence_date,
             next_expected_date = EXCLUDED.next_expected_date, occurrence_count = EXCLUDED.occurrence_count, updated_at = now()
       WHERE NOT r.manual
         AND (r.expected_day_of_month, r.last_occurrence_date, r.next_expected_date, r.occurrence_count)
             IS DISTINCT FROM (EXCLUDED.expected_day_of_month, EXCLUDED.last_occurrence_date, EXCLUDED.next_expected_date, EXCLUDED.occurrence_count)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM found) AS patterns, (SELECT count(*) FROM written) AS written`;
  return { patterns: Number(result?.patterns ?? 0), written: Number(result?.written ?? 0) };
}

/**
 * Sure's update_manual_recurring_transactions: each active manual row's occurrences of the last
 * 6 months (same currency, its account when it has one, its merchant or else its name, an
 * amount within 2x of its own either way, a day within 2 of its expected day on the month's
 * circle, the day clamped to short months) give its expected min, max and average, its count,
 * last occurrence and next expected date. Its amount, day, status and identity stay the
 * person's. A row with no occurrence is left as it is. Returns the rows changed.
 *
 * The day rule is turned into the dates it allows (at most 5 a month, from the lookback's month
 * to the latest entry's), so each row probes the (family, merchant, date) or (family, currency,
 * date, amount) index on those days only: a row costs what its few days hold, however many
 * purchases the family makes in between.
 */
export async function updateManualVariance(tx: FinanceTx, familyId: string, today: string): Promise<number> {
  const since = monthsBefore(today, MANUAL_LOOKBACK_MONTHS);
  const months = Prisma.sql`generate_series(date_trunc('month', ${since}::date::timestamp),
    date_trunc('month', (SELECT max(e.date) FROM entries e WHERE e.family_id = ${familyId}::uuid AND e.kind = 'transaction')::timestamp), interval '1 month')`;
  // Day offset (0-based) from the month's first of the k-th day around the expected day, on the 31-day circle.
  const offset = Prisma.sql`(LEAST(m.expected_day_of_month, mo.length) - 1 + k + 31) % 31`;
  const occurrences = (match: Prisma.Sql) => Prisma.sql`
      SELECT m.id, m.expected_day_of_month, e.amount_cents, e.date
        FROM manual m JOIN days d ON d.id = m.id
        JOIN entries e ON e.family_id = ${familyId}::uuid AND e.date = d.date AND e.currency = m.currency AND e.amount_cents BETWEEN m.low AND m.high
                      AND e.kind = 'transaction' AND (m.account_id IS NULL OR e.account_id = m.account_id) AND ${match}`;
  return tx.$executeRaw`
    -- Materialized: computed once, whatever the planner believes of a table this very scan may have grown.
    WITH manual AS MATERIALIZED (
      SELECT id, account_id, merchant_id, name, currency, expected_day_of_month,
             -- Sure's amount_within_variance_band? (ratio 2) on whole minor units: from half to double, signs never mixed.
             CASE WHEN amount_cents > 0 THEN ceil(amount_cents / 2.0)::bigint ELSE amount_cents * 2 END AS low,
             CASE WHEN amount_cents > 0 THEN amount_cents * 2 ELSE floor(amount_cents / 2.0)::bigint END AS high
        FROM recurring_transactions
       WHERE family_id = ${familyId}::uuid AND manual AND status = 'active'
    ),
    days AS MATERIALIZED (
      SELECT m.id, (mo.first + ${offset})::date AS date
        FROM manual m
        CROSS JOIN (SELECT month::date AS first, ${daysInMonthSql(Prisma.sql`month`)} AS length FROM ${months} AS month) mo
        CROSS JOIN generate_series(-2, 2) AS k
       WHERE ${offset} < mo.length AND (mo.first + ${offset})::date >= ${since}::date
    ),
    matched AS MATERIALIZED (
      ${occurrences(Prisma.sql`e.merchant_id = m.merchant_id`)}
      UNION ALL
      ${occurrences(Prisma.sql`m.merchant_id IS NULL AND e.name = m.name`)}
    ),
    stats AS (
      SELECT id, expected_day_of_month, count(*)::int AS n, min(amount_cents) AS min_cents, max(amount_cents) AS max_cents,
             round(avg(amount_cents))::bigint AS avg_cents, max(date) AS last_date
        FROM matched GROUP BY id, expected_day_of_month
    )
    UPDATE recurring_transactions r
       SET expected_amount_min_cents = x.min_cents, expected_amount_max_cents = x.max_cents, expected_amount_avg_cents = x.avg_cents,
           occurrence_count = x.n, last_occurrence_date = x.last_date,
           next_expected_date = ${nextExpectedDateSql(Prisma.sql`x.last_date`, Prisma.sql`x.expected_day_of_month`)}, updated_at = now()
      FROM stats x
     WHERE r.id = x.id AND r.family_id = ${familyId}::uuid AND r.manual
       AND (r.expected_amount_min_cents, r.expected_amount_max_cents, r.expected_amount_avg_cents, r.occurrence_count, r.last_occurrence_date, r.next_expected_date)
           IS DISTINCT FROM (x.min_cents, x.max_cents, x.avg_cents, x.n,
                             x.last_date, ${nextExpectedDateSql(Prisma.sql`x.last_date`, Prisma.sql`x.expected_day_of_month`)})`;
}
