import type { FinanceDb, FinanceTx } from "../db";
import type { StoredRate } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rate-queries";
import { dateOf, isoDateOf } from "../ledger/dates";
import { holdingsValuesOf, materializeHoldings } from "../holdings/holding-materializer";
import { clearHoldings } from "../holdings/holding-materializer-queries";
import type { BalanceStart, CalculatorEntry, DailyBalance } from "./balance-calculator";

/** An entry as the calculator needs it, in its own currency. */
export interface EntryRow {
  date: Date;
  kind: CalculatorEntry["kind"];
  valuation_kind: string | null;
  amount_cents: bigint;
  currency: string;
}

/** The days that bound an account's ledger (ISO dates; null where there is no such entry). */
export interface LedgerSpan {
  anchor: string | null;
  firstValuation: string | null;
  /** The first transaction or trade. */
  firstFlow: string | null;
  last: string;
  /** Whether any entry is in another currency than the account's. */
  foreign: boolean;
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
 * Moves the account's opening anchor to the day before its oldest other entry when that entry is
 * not after it; true when it moved (false too when the account is gone). Its own short
 * transaction, taking the account row first as every ledger write does (account, then entries,
 * then the ledger version at commit), so it never deadlocks with a write of the anchor itself.
 */
export function placeOpeningAnchorFirst(db: FinanceDb, accountId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
    return moveOpeningAnchorFirst(tx, accountId);
  });
}

/** The move of placeOpeningAnchorFirst in the caller's transaction (which holds the account); true when it moved. */
export async function moveOpeningAnchorFirst(tx: FinanceTx, accountId: string): Promise<boolean> {
  const moved = await tx.$executeRaw`
    UPDATE entries AS anchor SET date = oldest.date - 1, updated_at = now()
      FROM (SELECT min(date) AS date FROM entries
             WHERE account_id = ${accountId}::uuid AND valuation_kind IS DISTINCT FROM 'opening_anchor') AS oldest
     WHERE anchor.account_id = ${accountId}::uuid AND anchor.valuation_kind = 'opening_anchor' AND anchor.date >= oldest.date`;
  return moved > 0;
}

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
  const iso = (date: Date | null) => (date ? isoDateOf(date) : null);
  return {
    account() {
      return tx.account.findUnique({ where: { id: accountId } });
    },

    /** Where the ledger starts and ends, or null without entries. */
    async ledgerSpan(currency: string): Promise<LedgerSpan | null> {
      const [span] = await tx.$queryRaw<
        { anchor: Date | null; first_valuation: Date | null; first_flow: Date | null; last: Date | null; foreign: boolean | null }[]
      >`
        SELECT min(date) FILTER (WHERE valuation_kind = 'opening_anchor') AS anchor,
               min(date) FILTER (WHERE kind = 'valuation') AS first_valuation,
               min(date) FILTER (WHERE kind <> 'valuation') AS first_flow,
               max(date) AS last,
               bool_or(currency <> ${currency}) AS foreign
          FROM entries WHERE account_id = ${accountId}::uuid`;
      if (!span?.last) return null;
      return {
        anchor: iso(span.anchor),
        firstValuation: iso(span.first_valuation),
        firstFlow: iso(span.first_flow),
        last: isoDateOf(span.last),
        foreign: span.foreign === true,
      };
    },

    /** No entries: no balances, and a cached balance of zero. */
    async clear(): Promise<void> {
      await tx.balance.deleteMany({ where: { accountId } });
      await clearHoldings(tx, accountId);
      await tx.account.update({ where: { id: accountId }, data: { balanceCents: 0n, cashBalanceCents: 0n } });
    },

    /** The stored end of a day, or null when that day was never computed. */
    async endOf(date: string, currency: string): Promise<BalanceStart | null> {
      const row = await tx.balance.findUnique({ where: { accountId_date_currency: { accountId, date: dateOf(date), currency } } });
      return row ? { endCashCents: Number(row.endCashCents), endNonCashCents: Number(row.endNonCashCents) } : null;
    },

    /**
     * The account's entries from `from` on, in the order the calculator applies them. A trade
     * that moves no quantity (a dividend, interest) is cash coming in and nothing else, so the
     * calculator sees it as a transaction (Sure's forward_calculator_test "investment account
     * interest trade is classified as cash-only, not non-cash outflow").
     */
    entriesFrom(from: string): Promise<EntryRow[]> {
      return tx.$queryRaw<EntryRow[]>`
        SELECT e.date, CASE WHEN t.qty = 0 THEN 'transaction' ELSE e.kind::text END AS kind,
               e.valuation_kind::text AS valuation_kind, e.amount_cents, e.currency
          FROM entries e LEFT JOIN trades t ON t.entry_id = e.id
         WHERE e.account_id = ${accountId}::uuid AND e.date >= ${dateOf(from)}::date
         ORDER BY e.date, e.created_at, e.id`;
    },

    /** An investment account's holdings materialized (its position spans; `full`: all of them, from its opening day); each day's value from `from` to `to` in cents. */
    holdingsValues(account: { id: string; familyId: string; currency: string }, window: { from: string; to: string; full: boolean }) {
      return materializeHoldings(tx, account, window);
    },

    /** The family's stored rates between two currencies (either way round), oldest first. */
    ratesBetween(familyId: string, from: string, to: string): Promise<StoredRate[]> {
      return storedRatesBetween(tx, familyId, from, to);
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

    /** The account's cached balance becomes its newest stored day, future ones included as in Sure (zero without one). */
    async refreshCachedBalance(currency: string): Promise<void> {
      const current = await tx.balance.findFirst({ where: { accountId, currency }, orderBy: { date: "desc" } });
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

/**
 * The reads of computing an account's balances inside another transaction (a SureImport's), which
 * write nothing: its holdings are valued without storing their spans (the queued sync does).
 */
export function balanceReadsIn(tx: FinanceTx, accountId: string) {
  const { ledgerSpan, endOf, entriesFrom, ratesBetween } = materializerQueries(tx, accountId);
  return {
    ledgerSpan,
    endOf,
    entriesFrom,
    ratesBetween,
    holdingsValues: (account: { id: string; familyId: string; currency: string }, window: { from: string; to: string }) =>
      holdingsValuesOf(tx, account, window),
  };
}
