import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { loadRateBook, type RateBook } from "../exchange-rates/rate-book";
import { addDays, dateOf, isoDateOf, todayIso } from "../ledger/dates";
import { balanceTypeOf, calculateBalances, type BalanceStart, type CalculatorEntry, type DailyBalance } from "./balance-calculator";

type Tx = Prisma.TransactionClient;

export interface MaterializeResult {
  /** The first day recomputed (null: the account has no entries or no longer exists). */
  from: string | null;
  to: string | null;
  rowsWritten: number;
}

interface EntryRow {
  date: Date;
  kind: CalculatorEntry["kind"];
  amount_cents: bigint;
  currency: string;
}

/**
 * Recomputes an account's daily balances from `windowStart` (null: from its first entry) to
 * today or its last entry, in one transaction: the calculator runs forward from the stored
 * balance of the day before the window, rows are upserted by account, date and currency (only
 * those that changed are written), rows outside the history are removed, and the account's
 * cached balance is refreshed. A per-account advisory lock keeps two workers from interleaving.
 */
export async function materializeBalances(db: FinanceDb, accountId: string, windowStart: string | null, today = todayIso()): Promise<MaterializeResult> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${accountId}, 0))`;
      const account = await tx.account.findUnique({ where: { id: accountId } });
      if (!account || account.status === "pending_deletion") return { from: null, to: null, rowsWritten: 0 };

      const [span] = await tx.$queryRaw<{ first: Date | null; last: Date | null }[]>`
        SELECT min(date) AS first, max(date) AS last FROM entries WHERE account_id = ${accountId}::uuid`;
      if (!span?.first || !span.last) {
        await tx.balance.deleteMany({ where: { accountId } });
        await tx.account.update({ where: { id: accountId }, data: { balanceCents: 0n, cashBalanceCents: 0n } });
        return { from: null, to: null, rowsWritten: 0 };
      }
      const first = isoDateOf(span.first);
      const last = isoDateOf(span.last);
      const to = last > today ? last : today;

      let from = first;
      let start: BalanceStart | undefined;
      if (windowStart !== null && windowStart > first) {
        const previous = await tx.balance.findUnique({
          where: { accountId_date_currency: { accountId, date: dateOf(addDays(windowStart, -1)), currency: account.currency } },
        });
        // Without the day before the window (never computed), recompute everything.
        if (previous) {
          from = windowStart;
          start = { endCashCents: Number(previous.endCashCents), endNonCashCents: Number(previous.endNonCashCents) };
        }
      }

      const entries = await loadEntries(tx, account.familyId, accountId, account.currency, from);
      const rows = calculateBalances({
        account: { classification: account.classification, balanceType: balanceTypeOf(account.accountType) },
        entries,
        from,
        to,
        ...(start ? { start } : {}),
      });
      const rowsWritten = await upsertRows(tx, account.familyId, accountId, account.currency, rows);
      await tx.$executeRaw`
        DELETE FROM balances
         WHERE account_id = ${accountId}::uuid
           AND (date < ${dateOf(first)}::date OR date > ${dateOf(to)}::date OR currency <> ${account.currency})`;

      const current = await tx.balance.findFirst({
        where: { accountId, currency: account.currency, date: { lte: dateOf(today) } },
        orderBy: { date: "desc" },
      });
      await tx.account.update({
        where: { id: accountId },
        data: {
          balanceCents: current ? current.endCashCents + current.endNonCashCents : 0n,
          cashBalanceCents: current ? current.endCashCents : 0n,
        },
      });
      return { from, to, rowsWritten };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** The account's entries from `from` on, in the account's currency (converted at stored rates). */
async function loadEntries(tx: Tx, familyId: string, accountId: string, currency: string, from: string): Promise<CalculatorEntry[]> {
  const rows = await tx.$queryRaw<EntryRow[]>`
    SELECT date, kind::text AS kind, amount_cents, currency FROM entries
     WHERE account_id = ${accountId}::uuid AND date >= ${dateOf(from)}::date
     ORDER BY date, created_at, id`;
  const books = new Map<string, RateBook>();
  const entries: CalculatorEntry[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const date = isoDateOf(row.date);
    let cents = row.amount_cents;
    if (row.currency !== currency) {
      let book = books.get(row.currency);
      if (!book) books.set(row.currency, (book = await loadRateBook(tx, familyId, row.currency, currency)));
      cents = book.convert(cents, date);
    }
    entries[i] = { date, kind: row.kind, amountCents: Number(cents) };
  }
  return entries;
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

/** One statement for all rows (arrays unnested); unchanged rows are not rewritten. */
async function upsertRows(tx: Tx, familyId: string, accountId: string, currency: string, rows: DailyBalance[]): Promise<number> {
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
}
