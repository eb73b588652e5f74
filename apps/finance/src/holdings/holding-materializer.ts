import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { avgCostOf, calculateHoldings, type PositionStart, type PositionTrade } from "./holding-calculator";
import {
  deleteSpans,
  moveSpanEnds,
  sortInMemory,
  storedSpanColumns,
  tradeColumns,
  upsertSpans,
  windowStartColumns,
  type HoldingsAccount,
  type SpanEnd,
} from "./holding-materializer-queries";
import { createPriceConverter, loadPriceWindow, type PriceConverter } from "./holding-prices";
import { positionSpans, type PositionSpan } from "./position-spans";

/** A comma-joined column (see holding-materializer-queries.ts) as its fields. */
const fieldsOf = (text: string | null): string[] => (text === null ? [] : text.split(","));

/**
 * Recomputes an investment account's holdings inside the balance materializer's transaction
 * (which holds the account's lock): the spans of its positions, writing only those that changed,
 * and each day's holdings value from `from` to `to` in the account's currency (cents), which is
 * the day's non-cash balance. A window that starts mid-history (`full` false) reads the trades from
 * `from` on and the positions the earlier ones left, summed in the database, and rewrites only the
 * spans from `from` on: a backdated trade costs its window, not the account's whole history.
 */
export async function materializeHoldings(
  tx: FinanceTx,
  account: HoldingsAccount,
  window: { from: string; to: string; full: boolean },
): Promise<Map<string, number>> {
  const { from, to } = window;
  await sortInMemory(tx);
  const convert = createPriceConverter(tx, account.familyId, account.currency);
  const partial = window.full ? null : await windowStart(tx, account, from);
  const trades = await loadTrades(tx, account, partial ? from : null, convert);
  if (partial && !trades.foreign) {
    await writeChangedSpans(tx, account, positionSpans(trades.list, partial.positions), { from, carriedIn: partial.carriedIn });
  } else if (partial) {
    // A trade in another currency: its converted price is only known trade by trade, so the positions before are not summed.
    return materializeHoldings(tx, account, { ...window, full: true });
  } else {
    await writeChangedSpans(tx, account, positionSpans(trades.list), null);
  }

  return valuesOf(tx, account, trades.list, partial?.positions, { from, to }, convert);
}

/**
 * Each day's holdings value from `from` to `to` (cents) from all the account's trades, writing
 * nothing: what a SureImport checks the file's balance history against before the sync runs.
 */
export async function holdingsValuesOf(tx: FinanceTx, account: HoldingsAccount, window: { from: string; to: string }): Promise<Map<string, number>> {
  const convert = createPriceConverter(tx, account.familyId, account.currency);
  const trades = await loadTrades(tx, account, null, convert);
  return valuesOf(tx, account, trades.list, undefined, window, convert);
}

/** The day's values of the positions (`positionsBefore` and the trades from `from` on) at the stored prices. */
async function valuesOf(
  tx: FinanceTx,
  account: HoldingsAccount,
  trades: readonly PositionTrade[],
  positionsBefore: ReadonlyMap<string, PositionStart> | undefined,
  { from, to }: { from: string; to: string },
  convert: PriceConverter,
): Promise<Map<string, number>> {
  const windowTrades = trades.filter((trade) => trade.date <= to);
  const securityIds = [...new Set([...windowTrades.map((trade) => trade.securityId), ...(positionsBefore?.keys() ?? [])])];
  const { prices, pricesBefore } = await loadPriceWindow(tx, account, securityIds, from, to, convert);
  const { valueByDate } = calculateHoldings({
    trades: windowTrades,
    ...(positionsBefore ? { positionsBefore } : {}),
    prices,
    pricesBefore,
    from,
    to,
    withRows: false,
    digits: minorUnitDigits(account.currency),
  });
  const values = new Map<string, number>();
  for (const [date, cents] of valueByDate) values.set(date, Number(cents));
  return values;
}

/** The account's trades that move a quantity (from `since` on, null: all), in the order same-day trades apply, prices in the account's currency. */
async function loadTrades(tx: FinanceTx, account: HoldingsAccount, since: string | null, convert: PriceConverter) {
  const trades = await tradeColumns(tx, account, since);
  const days = fieldsOf(trades.days);
  const securities = fieldsOf(trades.security_ids);
  const qtys = fieldsOf(trades.qtys);
  const prices = fieldsOf(trades.prices);
  const currencies = fieldsOf(trades.currencies);
  const list: PositionTrade[] = new Array<PositionTrade>(days.length);
  let foreign = false;
  for (let i = 0; i < days.length; i++) {
    const date = dayNumberToIso(Number(days[i]));
    const currency = currencies[i];
    const price = BigInt(prices[i]!);
    if (currency) foreign = true;
    list[i] = { date, securityId: securities[i]!, qty: BigInt(qtys[i]!), price: currency ? await convert(price, currency, date) : price };
  }
  return { list, foreign };
}

/**
 * Where a window starting at `from` begins: each security's position after the trades before it
 * (summed in the database, exactly: scaled integers, as the calculator adds them) and the stored
 * span that covers the day before, whose end the window's trades may move. Null when the stored
 * spans before the window do not match those trades (a sync that failed left them stale, or the
 * position was never synced in full) or a trade is in another currency: the caller then
 * recomputes everything. Matching: per security, as many spans before `from` as trade days, the
 * last starting on the last trade day with the sums' quantity and average cost, and no span of a
 * security without trades before `from`.
 */
async function windowStart(tx: FinanceTx, account: HoldingsAccount, from: string) {
  const rows = await windowStartColumns(tx, account, from);
  const positions = new Map<string, PositionStart>();
  const carriedIn = new Map<string, { startDay: number; endDay: number | null }>();
  const dayBefore = isoToDayNumber(from) - 1;
  for (const row of rows) {
    if (row.foreign || row.qty === null || row.carried_start === null || row.spans !== row.trade_days) return null;
    const start: PositionStart = {
      qty: BigInt(row.qty),
      boughtQty: BigInt(row.bought_qty!),
      boughtCost: BigInt(row.bought_cost!),
      price: BigInt(row.price!),
      priceDay: row.price_day!,
    };
    const avgCost = avgCostOf(start.boughtQty, start.boughtCost);
    const matches =
      row.carried_start === start.priceDay &&
      (row.carried_end === null || row.carried_end >= dayBefore) &&
      row.carried_qty === start.qty.toString() &&
      row.carried_avg_cost === (avgCost === null ? null : avgCost.toString());
    if (!matches) return null;
    positions.set(row.security_id, start);
    carriedIn.set(row.security_id, { startDay: row.carried_start, endDay: row.carried_end });
  }
  return { positions, carriedIn };
}

const keyOf = (securityId: string, currency: string, startDay: number) => `${securityId}|${currency}|${startDay}`;
const figuresOf = (span: PositionSpan) => `${span.endDay ?? ""}|${span.qty}|${span.avgCost ?? ""}|${span.tradePrice}|${span.tradePriceDay}`;

/**
 * Compares the computed spans with the stored ones (in memory, by security, currency and start
 * day), deletes those no longer true (a trade removed or moved, another currency) and writes the
 * new and changed ones: a sync that changes little writes little, and a re-sync of the same
 * trades writes nothing. A window (`scope`) compares only the spans from its first day on, and
 * ends each security's span carried into it where that security's first span in the window starts.
 */
async function writeChangedSpans(
  tx: FinanceTx,
  account: HoldingsAccount,
  spans: PositionSpan[],
  scope: { from: string; carriedIn: Map<string, { startDay: number; endDay: number | null }> } | null,
): Promise<void> {
  const stored = await storedSpanColumns(tx, account.id, scope?.from ?? null);
  const ids = fieldsOf(stored.ids);
  const keys = fieldsOf(stored.keys);
  const figures = fieldsOf(stored.figures);
  const storedByKey = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) storedByKey.set(keys[i]!, i);

  const changed: PositionSpan[] = [];
  const firstStart = new Map<string, number>();
  for (const span of spans) {
    if (!firstStart.has(span.securityId)) firstStart.set(span.securityId, span.startDay);
    const key = keyOf(span.securityId, account.currency, span.startDay);
    const at = storedByKey.get(key);
    if (at !== undefined) {
      storedByKey.delete(key); // seen: what is left at the end is stale
      if (figures[at] === figuresOf(span)) continue;
    }
    changed.push(span);
  }
  const stale = [...storedByKey.values()].map((at) => ids[at]!);
  if (stale.length > 0) await deleteSpans(tx, stale);
  await upsertSpans(tx, account, changed);
  // The spans carried into the window now end the day before their security's next trade (open without one).
  const moved: SpanEnd[] = [];
  for (const [securityId, carried] of scope?.carriedIn ?? []) {
    const next = firstStart.get(securityId);
    const endDay = next === undefined ? null : next - 1;
    if (endDay !== carried.endDay) moved.push({ securityId, startDay: carried.startDay, endDay });
  }
  if (moved.length > 0) await moveSpanEnds(tx, account, moved);
}
