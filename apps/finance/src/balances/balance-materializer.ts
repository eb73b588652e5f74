import type { FinanceDb } from "../db";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { addDays, isoDateOf, todayIso } from "../ledger/dates";
import { balanceTypeOf, calculateBalances, type BalanceStart, type CalculatorEntry } from "./balance-calculator";
import { withAccountLocked, type MaterializerQueries } from "./balance-materializer-queries";

export interface MaterializeResult {
  /** The first day recomputed (null: the account has no entries or no longer exists). */
  from: string | null;
  to: string | null;
  rowsWritten: number;
}

/**
 * Recomputes an account's daily balances from `windowStart` (null: from its first entry) to
 * today or its last entry, in one transaction: the calculator runs forward from the stored
 * balance of the day before the window, rows are upserted by account, date and currency (only
 * those that changed are written), rows outside the history are removed, and the account's
 * cached balance is refreshed. A per-account advisory lock keeps two workers from interleaving.
 */
export async function materializeBalances(db: FinanceDb, accountId: string, windowStart: string | null, today = todayIso()): Promise<MaterializeResult> {
  return withAccountLocked(db, accountId, async (queries) => {
    const account = await queries.account();
    if (!account || account.status === "pending_deletion") return { from: null, to: null, rowsWritten: 0 };

    const span = await queries.entrySpan();
    if (!span) {
      await queries.clear();
      return { from: null, to: null, rowsWritten: 0 };
    }
    const { first, last } = span;
    const to = last > today ? last : today;

    let from = first;
    let start: BalanceStart | undefined;
    if (windowStart !== null && windowStart > first) {
      const previous = await queries.endOf(addDays(windowStart, -1), account.currency);
      // Without the day before the window (never computed), recompute everything.
      if (previous) {
        from = windowStart;
        start = previous;
      }
    }

    const entries = await loadEntries(queries, account.familyId, account.currency, from);
    const rows = calculateBalances({
      account: { classification: account.classification, balanceType: balanceTypeOf(account.accountType) },
      entries,
      from,
      to,
      ...(start ? { start } : {}),
    });
    const rowsWritten = await queries.upsertDays(account.familyId, account.currency, rows);
    await queries.deleteOutside(first, to, account.currency);
    await queries.refreshCachedBalance(account.currency, today);
    return { from, to, rowsWritten };
  });
}

/** The account's entries from `from` on, in the account's currency (converted at stored rates). */
async function loadEntries(queries: MaterializerQueries, familyId: string, currency: string, from: string): Promise<CalculatorEntry[]> {
  const rows = await queries.entriesFrom(from);
  const books = new Map<string, RateBook>();
  const entries: CalculatorEntry[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const date = isoDateOf(row.date);
    let cents = row.amount_cents;
    if (row.currency !== currency) {
      let book = books.get(row.currency);
      if (!book) books.set(row.currency, (book = createRateBook(await queries.ratesBetween(familyId, row.currency, currency), row.currency, currency)));
      cents = book.convert(cents, date);
    }
    entries[i] = { date, kind: row.kind, amountCents: Number(cents) };
  }
  return entries;
}
