import type { FinanceDb, FinanceTx } from "../db";
import type { StoredRate } from "../exchange-rates/rate-book";
import { dateOf, isoDateOf } from "../ledger/dates";
import type { BalanceStart, CalculatorEntry, DailyBalance } from "./balance-calculator";

/** An entry as the calculator needs it, in its own currency. */
export interface EntryRow {
  date: Date;
  kind: CalculatorEntry["kind"];
  amount_cents: bigint;
  currency: string;
}

const COLUMNS = [
  ["start_cash_balance_cents", "startCashCents"],
  ["start_non_cash_balance_cents", "startNonCashCents"],
  ["cash_inflows_cents", "cashInflowsCents"],
  ["cash_outflows_cents", "cashOutflowsCents"],
  ["non_cash_inflows_cents", "nonCashInflowsCents"],
  ["non_cash_outflows_cents", "nonCashOutflowsCents"],
  ["net_market_flows_cents", "netMarketFlowsCents"],
  ["cash_adjustments_cents", "cashAdjustmentsCents"],
  ["non_cash_adjustments_cents", "nonCashAdjustmentsCents"],
  ["end_cash_balance_cents", "endCashCents"],
  ["end_non_cash_balance_cents", "endNonCashCents"],
] as const satisfies readonly (readonly [string, keyof DailyBalance])[];

/**
 * Runs `work` in one transaction holding the account's advisory lock (two workers never
 * interleave on one account), with the materializer's queries bound to that transaction.
 */
export function withAccountLocked<T>(db: FinanceDb, accountId: string, work: (queries: MaterializerQueries) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${accountId}, 0))`;
      return work(materializerQueries(tx, accountId));
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

function materializerQueries(tx: FinanceTx, accountId: string) {
  return {
    account() {
      return tx.account.findUnique({ where: { id: accountId } });
    },

    /** The first and last days with entries, or null without any. */
    async entrySpan(): Promise<{ first: string; last: string } | null> {
      const [span] = await tx.$queryRaw<{ first: Date | null; last: Date | null }[]>`
        SELECT min(date) AS first, max(date) AS last FROM entries WHERE account_id = ${accountId}::uuid`;
      return span?.first && span.last ? { first: isoDateOf(span.first), last: isoDateOf(span.last) } : null;
    },

    /** No entries: no balances, and a cached balance of zero. */
    async clear(): Promise<void> {
      await tx.balance.deleteMany({ where: { accountId } });
      await tx.account.update({ where: { id: accountId }, data: { balanceCents: 0n, cashBalanceCents: 0n } });
    },

    /** The stored end of a day, or null when that day was never computed. */
    async endOf(date: string, currency: string): Promise<BalanceStart | null> {
      const row = await tx.balance.findUnique({ where: { accountId_date_currency: { accountId, date: dateOf(date), currency } } });
      return row ? { endCashCents: Number(row.endCashCents), endNonCashCents: Number(row.endNonCashCents) } : null;
    },

    /** The account's entries from `from` on, in the order the calculator applies them. */
    entriesFrom(from: string): Promise<EntryRow[]> {
      return tx.$queryRaw<EntryRow[]>`
        SELECT date, kind::text AS kind, amount_cents, currency FROM entries
         WHERE account_id = ${accountId}::uuid AND date >= ${dateOf(from)}::date
         ORDER BY date, created_at, id`;
    },

    /** The family's stored rates between two currencies (either way round), oldest first. */
    async ratesBetween(familyId: string, from: string, to: string): Promise<StoredRate[]> {
      const rows = await tx.exchangeRate.findMany({
        where: {
          familyId,
          OR: [
            { fromCurrency: from, toCurrency: to },
            { fromCurrency: to, toCurrency: from },
          ],
        },
        orderBy: { date: "asc" },
      });
      return rows.map((row) => ({ date: isoDateOf(row.date), from: row.fromCurrency, rate: row.rate.toFixed() }));
    },

    /** One statement for all rows (arrays unnested); unchanged rows are not rewritten. */
    async upsertDays(familyId: string, currency: string, rows: DailyBalance[]): Promise<number> {
      if (rows.length === 0) return 0;
      const names = COLUMNS.map(([column]) => column);
      const arrays = COLUMNS.map(([, field]) => rows.map((row) => String(row[field])));
      const flowsFactor = rows[0]!.flowsFactor;
      const sql = `
        INSERT INTO balances (id, family_id, account_id, date, currency, flows_factor, ${names.join(", ")}, created_at, updated_at)
        SELECT gen_random_uuid(), $1::uuid, $2::uuid, t.date, $3, $4, ${names.map((name) => `t.${name}`).join(", ")}, now(), now()
          FROM unnest($5::date[], ${names.map((_, i) => `$${i + 6}::bigint[]`).join(", ")}) AS t(date, ${names.join(", ")})
        ON CONFLICT (account_id, date, currency) DO UPDATE SET
          flows_factor = EXCLUDED.flows_factor, ${names.map((name) => `${name} = EXCLUDED.${name}`).join(", ")}, updated_at = now()
        WHERE (balances.flows_factor, ${names.map((name) => `balances.${name}`).join(", ")})
              IS DISTINCT FROM (EXCLUDED.flows_factor, ${names.map((name) => `EXCLUDED.${name}`).join(", ")})`;
      return tx.$executeRawUnsafe(
        sql,
        familyId,
        accountId,
        currency,
        flowsFactor,
        rows.map((row) => row.date),
        ...arrays,
      );
    },

    /** Removes the rows outside the history (before its first day, after `to`, or in another currency). */
    async deleteOutside(first: string, to: string, currency: string): Promise<void> {
      await tx.$executeRaw`
        DELETE FROM balances
         WHERE account_id = ${accountId}::uuid
           AND (date < ${dateOf(first)}::date OR date > ${dateOf(to)}::date OR currency <> ${currency})`;
    },

    /** The account's cached balance becomes its latest stored day up to `today` (zero without one). */
    async refreshCachedBalance(currency: string, today: string): Promise<void> {
      const current = await tx.balance.findFirst({
        where: { accountId, currency, date: { lte: dateOf(today) } },
        orderBy: { date: "desc" },
      });
      await tx.account.update({
        where: { id: accountId },
        data: {
          balanceCents: current ? current.endCashCents + current.endNonCashCents : 0n,
          cashBalanceCents: current ? current.endCashCents : 0n,
        },
      });
    },
  };
}
export type MaterializerQueries = ReturnType<typeof materializerQueries>;
