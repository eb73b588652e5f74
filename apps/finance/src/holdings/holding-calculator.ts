// The forward holdings calculator: from an account's trades and its securities' prices, what it
// held of each security at the end of every day and what that was worth, as Sure's
// Holding::ForwardCalculator computes it (a running quantity per security; the day's price is
// the stored one for that day, else the price of a trade that day, else the last price used,
// as Sure's portfolio cache and its gap-filling give). Pure, so the materializer can run it for
// a whole history or for a window after a change, and the property tests can drive it.
import { dayNumberToIso, tryIsoToDayNumber } from "../balances/calendar-days";
import { valueInMinorUnits } from "./fixed-point";

/** A trade that moves a position: quantity in 10^-8 units (sells negative), unit price in 10^-4 of the account's currency. */
export interface PositionTrade {
  date: string;
  securityId: string;
  qty: bigint;
  price: bigint;
}

/** One security's stored prices, oldest first: day numbers (days since 1970-01-01) and unit prices in 10^-4 of the account's currency. */
export interface PriceSeries {
  days: ArrayLike<number>;
  prices: ArrayLike<bigint>;
}

/** A series from prices by ISO day (any order): how tests and small callers state prices. */
export function priceSeriesOf(byDay: ReadonlyMap<string, bigint>): PriceSeries {
  const sorted = [...byDay].map(([date, price]) => [dayOf(date, "price date"), price] as const).sort(([a], [b]) => a - b);
  return { days: sorted.map(([day]) => day), prices: sorted.map(([, price]) => price) };
}

/**
 * A position at the end of the day before a window, as its trades up to then leave it: what a
 * sync starting mid-history reads from the database (summed there) instead of every earlier trade.
 */
export interface PositionStart {
  /** 10^-8 units. */
  qty: bigint;
  /** The buys so far: their quantity (10^-8) and their cost, qty x price (10^-12). */
  boughtQty: bigint;
  boughtCost: bigint;
  /** The last trade's unit price (10^-4) and its day number. */
  price: bigint;
  priceDay: number;
}

export interface HoldingsInput {
  /** Every trade of the account that moves a quantity, in any order (same-day trades apply in array order); with `positionsBefore`, only those from `from` on. */
  trades: readonly PositionTrade[];
  /** Per security, its position at the end of the day before `from` (instead of the trades before `from`). */
  positionsBefore?: ReadonlyMap<string, PositionStart>;
  /** Stored prices per security, at least those from `from` on (earlier days are skipped). */
  prices: ReadonlyMap<string, PriceSeries>;
  /** Per security, its latest stored price dated before `from` (the carried price the window starts from). */
  pricesBefore?: ReadonlyMap<string, { date: string; price: bigint }>;
  from: string;
  to: string;
  /** Decimal places of the account currency's minor unit. */
  digits: number;
  /** Rows only up to this day (later days still count in `valueByDate`): holdings are shown up to today, as Sure's. */
  rowsUntil?: string;
  /** False: no rows, only `valueByDate` (what a sync needs; the rows are what reads work out from spans). */
  withRows?: boolean;
}

export interface HoldingDay {
  securityId: string;
  date: string;
  qty: bigint;
  price: bigint;
  amountCents: bigint;
  /** Weighted average price of the buys so far (10^-4); sells leave it as it is. Null before any buy. */
  avgCost: bigint | null;
}

export interface HoldingsResult {
  /** One row per security and day, from the security's first trade (or `from`) to `to`. */
  rows: HoldingDay[];
  /** The sum of the day's holdings values, for every day from `from` to `to` (0 before any position). */
  valueByDate: Map<string, bigint>;
}

interface Position {
  securityId: string;
  /** The security's stored prices and the index of the next one not yet applied. */
  series: PriceSeries | undefined;
  cursor: number;
  qty: bigint;
  /** The last price used, and the day it is from (-Infinity: none yet). */
  price: bigint;
  priceDay: number;
  boughtQty: bigint;
  /** Sum of qty x price over the buys, in 10^-12 units. */
  boughtCost: bigint;
  /** avgCostOf(boughtQty, boughtCost), kept as buys happen: it changes on buy days only. */
  avgCost: bigint | null;
  /** The last value computed and the qty and price it is of: most days repeat them. */
  valuedQty: bigint;
  valuedPrice: bigint;
  value: bigint;
  started: boolean;
}

function dayOf(iso: string, what: string): number {
  const day = tryIsoToDayNumber(iso);
  if (Number.isNaN(day)) throw new Error(`${what} must be an ISO date YYYY-MM-DD, got ${JSON.stringify(iso)}`);
  return day;
}

/** Trades in the order they apply: by day, same-day ones in array order; each with its day number. Throws on a date that is not one. */
export function orderedTrades(trades: readonly PositionTrade[]): { trade: PositionTrade; day: number }[] {
  const ordered = trades.map((trade, index) => ({ trade, index, day: dayOf(trade.date, `trades[${index}].date`) }));
  ordered.sort((a, b) => a.day - b.day || a.index - b.index);
  return ordered;
}

/** The weighted average unit price (10^-4) of buys totalling `boughtQty` (10^-8) for `boughtCost` (10^-12); null before any buy. */
export function avgCostOf(boughtQty: bigint, boughtCost: bigint): bigint | null {
  if (boughtQty <= 0n) return null;
  // 10^-12 / 10^-8 = 10^-4, rounded half up (both are positive).
  return (boughtCost * 2n + boughtQty) / (2n * boughtQty);
}

function applyTrade(position: Position, trade: PositionTrade, day: number): void {
  position.qty += trade.qty;
  position.started = true;
  if (trade.qty > 0n) {
    position.boughtQty += trade.qty;
    position.boughtCost += trade.qty * trade.price;
    position.avgCost = avgCostOf(position.boughtQty, position.boughtCost);
  }
  // A trade's price stands for its day unless a stored price of that day (applied later) replaces it.
  if (day >= position.priceDay) {
    position.price = trade.price;
    position.priceDay = day;
  }
}

/** Rows for every held security and day from `from` to `to` inclusive; throws a plain Error on invalid input. */
export function calculateHoldings(input: HoldingsInput): HoldingsResult {
  const fromDay = dayOf(input.from, "from");
  const toDay = dayOf(input.to, "to");
  if (fromDay > toDay) throw new Error(`from (${input.from}) is after to (${input.to})`);

  const positions = new Map<string, Position>();
  const positionOf = (securityId: string): Position => {
    let position = positions.get(securityId);
    if (!position) {
      const series = input.prices.get(securityId);
      // The cursor starts at the window's first day: earlier prices are pricesBefore's business.
      let cursor = 0;
      while (series && cursor < series.days.length && series.days[cursor]! < fromDay) cursor++;
      position = {
        securityId,
        series,
        cursor,
        qty: 0n,
        price: 0n,
        priceDay: -Infinity,
        boughtQty: 0n,
        boughtCost: 0n,
        avgCost: null,
        valuedQty: 0n,
        valuedPrice: -1n,
        value: 0n,
        started: false,
      };
      positions.set(securityId, position);
    }
    return position;
  };

  for (const [securityId, start] of input.positionsBefore ?? []) {
    const position = positionOf(securityId);
    Object.assign(position, {
      qty: start.qty,
      boughtQty: start.boughtQty,
      boughtCost: start.boughtCost,
      avgCost: avgCostOf(start.boughtQty, start.boughtCost),
      price: start.price,
      priceDay: start.priceDay,
      started: true,
    });
  }
  // Trades before the window build the starting positions; the rest are grouped by day.
  const tradesByDay = new Map<number, PositionTrade[]>();
  for (const { trade, day } of orderedTrades(input.trades)) {
    if (day > toDay) break;
    if (day < fromDay) applyTrade(positionOf(trade.securityId), trade, day);
    else {
      const list = tradesByDay.get(day);
      if (list) list.push(trade);
      else tradesByDay.set(day, [trade]);
    }
  }
  // The stored price carried into the window wins over a trade's of the same day or earlier.
  for (const [securityId, before] of input.pricesBefore ?? []) {
    const position = positions.get(securityId);
    const day = dayOf(before.date, `pricesBefore[${securityId}].date`);
    if (position && day >= position.priceDay) {
      position.price = before.price;
      position.priceDay = day;
    }
  }

  const rows: HoldingDay[] = [];
  const valueByDate = new Map<string, bigint>();
  const lastRowDay = input.withRows === false ? -Infinity : input.rowsUntil === undefined ? toDay : Math.min(toDay, dayOf(input.rowsUntil, "rowsUntil"));
  for (let day = fromDay; day <= toDay; day++) {
    const date = dayNumberToIso(day);
    for (const trade of tradesByDay.get(day) ?? []) applyTrade(positionOf(trade.securityId), trade, day);
    let total = 0n;
    for (const position of positions.values()) {
      if (!position.started) continue;
      const series = position.series;
      if (series) {
        while (position.cursor < series.days.length && series.days[position.cursor]! < day) position.cursor++;
        if (position.cursor < series.days.length && series.days[position.cursor] === day) {
          position.price = series.prices[position.cursor]!;
          position.priceDay = day;
        }
      }
      if (position.qty !== position.valuedQty || position.price !== position.valuedPrice) {
        position.value = valueInMinorUnits(position.qty, position.price, input.digits);
        position.valuedQty = position.qty;
        position.valuedPrice = position.price;
      }
      const amountCents = position.value;
      total += amountCents;
      if (day <= lastRowDay)
        rows.push({ securityId: position.securityId, date, qty: position.qty, price: position.price, amountCents, avgCost: position.avgCost });
    }
    valueByDate.set(date, total);
  }
  return { rows, valueByDate };
}
