import type { FinanceDb } from "../db";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { addDays, isoDateOf, todayIso } from "../ledger/dates";
import {
  calculateBalances,
  calculatorAccountOf,
  openingStart,
  type AccountType,
  type BalanceStart,
  type CalculatorEntry,
  type DailyBalance,
} from "./balance-calculator";
import { placeOpeningAnchorFirst, withAccountLocked, type LedgerSpan, type MaterializerQueries } from "./balance-materializer-queries";

export interface MaterializeResult {
  /** The first day recomputed (null: the account has no entries or no longer exists). */
  from: string | null;
  to: string | null;
  rowsWritten: number;
}

/**
 * Recomputes an account's daily balances from `windowStart` (null: from its opening day) in one
 * transaction, holding a per-account advisory lock so two workers never interleave.
 *
 * As in Sure, the opening anchor (the opening balance) stays before every other entry: when an
 * older entry arrived, the anchor moves to the day before it. Rows start on the opening day
 * (the anchor's, or without one the day before the first entry) at the opening balance with no
 * adjustment, and run to the last entry or today, whichever is later. Sure stops at the last
 * entry; Hearth keeps a row for every day up to today so a balance on any past day is one row,
 * and the daily sync extends them. The account's cached balance is the newest row, future-dated
 * entries included (Sure's account balance).
 */
export async function materializeBalances(db: FinanceDb, accountId: string, windowStart: string | null, today = todayIso()): Promise<MaterializeResult> {
  const anchorMoved = await placeOpeningAnchorFirst(db, accountId);
  return withAccountLocked(db, accountId, async (queries) => {
    const account = await queries.account();
    if (!account || account.status === "pending_deletion") return { from: null, to: null, rowsWritten: 0 };

    const computed = await computeBalances(queries, account, { windowStart, today, anchorMoved });
    if (!computed) {
      await queries.clear();
      return { from: null, to: null, rowsWritten: 0 };
    }
    const { opening, from, to, rows } = computed;
    const rowsWritten = await queries.upsertDays(account.familyId, account.currency, rows);
    await queries.deleteOutside(opening, to, account.currency);
    await queries.refreshCachedBalance(account.currency);
    return { from, to, rowsWritten };
  });
}

/** What computing an account's balances reads (the materializer's queries, or a read-only set of them). */
export type BalanceReads = Pick<MaterializerQueries, "ledgerSpan" | "endOf" | "entriesFrom" | "holdingsValues" | "ratesBetween">;

export interface ComputedBalances {
  /** The account's first day, and the days recomputed (`from` is later than `opening` for a window). */
  opening: string;
  from: string;
  to: string;
  rows: DailyBalance[];
}

/**
 * The account's daily balances as the materializer stores them, without writing them (null: no
 * entries). `windowStart` null, or `anchorMoved`, computes its whole history.
 */
export async function computeBalances(
  queries: BalanceReads,
  account: { id: string; familyId: string; currency: string; accountType: AccountType },
  options: { windowStart: string | null; today: string; anchorMoved: boolean },
): Promise<ComputedBalances | null> {
  const { windowStart, today, anchorMoved } = options;
  const span = await queries.ledgerSpan(account.currency);
  if (!span) return null;
  const opening = openingDayOf(span);
  const to = span.last > today ? span.last : today;
  const calculatorAccount = calculatorAccountOf(account.accountType);

  let from = opening;
  let start: BalanceStart | undefined;
  // A window after the last day (the latest, future-dated entry was removed) starts on the last day: rows after it go.
  const changedFrom = windowStart !== null && windowStart > to ? to : windowStart;
  // Converted flows carry their rounding from the first entry on, so a foreign entry means a full run (as Sure does).
  if (changedFrom !== null && changedFrom > opening && !anchorMoved && !span.foreign) {
    const previous = await queries.endOf(addDays(changedFrom, -1), account.currency);
    // Without the day before the window (never computed), recompute everything.
    if (previous) {
      from = changedFrom;
      start = previous;
    }
  }

  const { entries, openingCents } = await loadEntries(queries, account.familyId, account.currency, from);
  // Investment accounts: the holdings are materialized first; their value is the non-cash balance.
  const holdingsValueByDate =
    calculatorAccount.balanceType === "investment" ? await queries.holdingsValues(account, { from, to, full: from === opening }) : undefined;
  const rows = calculateBalances({
    account: calculatorAccount,
    entries,
    from,
    to,
    start: start ?? openingStart(calculatorAccount, openingCents),
    ...(holdingsValueByDate ? { holdingsValueByDate } : {}),
  });
  return { opening, from, to, rows };
}

/** Sure's opening date: the anchor's; without one the first valuation's or the day before the first other entry, whichever is earlier. */
function openingDayOf(span: LedgerSpan): string {
  if (span.anchor !== null) return span.anchor;
  const beforeFirstFlow = span.firstFlow === null ? null : addDays(span.firstFlow, -1);
  if (span.firstValuation === null) return beforeFirstFlow!;
  if (beforeFirstFlow === null) return span.firstValuation;
  return span.firstValuation < beforeFirstFlow ? span.firstValuation : beforeFirstFlow;
}

/**
 * The account's entries from `from` on, in the account's currency at stored rates (flows through
 * carrying conversions, so running totals stay exact), and the opening anchor's amount (0 without one).
 */
async function loadEntries(queries: BalanceReads, familyId: string, currency: string, from: string) {
  const rows = await queries.entriesFrom(from);
  const books = new Map<string, { book: RateBook; flow: (cents: bigint, date: string) => bigint }>();
  const entries: CalculatorEntry[] = new Array(rows.length);
  let openingCents = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const date = isoDateOf(row.date);
    let cents = row.amount_cents;
    if (row.currency !== currency) {
      let converter = books.get(row.currency);
      if (!converter) {
        const book = createRateBook(await queries.ratesBetween(familyId, row.currency, currency), row.currency, currency);
        converter = { book, flow: book.carrying() };
        books.set(row.currency, converter);
      }
      // A valuation is a level, not a flow: converted on its own.
      cents = row.kind === "valuation" ? converter.book.convert(cents, date) : converter.flow(cents, date);
    }
    entries[i] = { date, kind: row.kind, amountCents: Number(cents) };
    if (row.valuation_kind === "opening_anchor") openingCents = Number(cents);
  }
  return { entries, openingCents };
}
