// What a Sure file's Holding records say of each position that its trades do not: Hearth's
// holdings follow from trades alone (spans, holdings/position-spans.ts), so a quantity no trade
// explains (a position held before the file's history, a provider's holdings without trades)
// becomes a trade of the difference on the holding's day. Pure: the publish writes what it answers.
import { PRICE_SCALE, QTY_SCALE, rescale, toScaled } from "../../../holdings/fixed-point";
import { TRADE_PRICE_SCALE } from "../../../trades/trade-amounts";
import type { SureHoldingValues, SureTradeValues } from "../../ndjson";

/** A trade the import makes so the position's quantity at the end of the holding's day is the file's. */
export interface HoldingTrade {
  holding: SureHoldingValues;
  /** 10^-8 units, signed (a sell is negative). */
  qty: bigint;
  /** Unit price, 10^-10 of the holding's currency. */
  price: bigint;
}

/** One account's position in one ticker: its Holding records (one a day, oldest first) in one currency, and the file's trades of it. */
export interface FilePosition {
  accountId: string;
  ticker: string;
  currency: string;
  holdings: SureHoldingValues[];
  trades: SureTradeValues[];
}

/** Records by account and ticker, in the file's order. */
function groupBy<T extends { account_id: string; ticker: string }>(records: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const record of records) {
    const key = `${record.account_id}\u0000${record.ticker}`;
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

/**
 * The file's positions. Hearth values a position in its account's currency only, so a ticker held
 * in several currencies keeps the records of the account's (else of the first one's); a day
 * recorded twice keeps its last record (Sure's upsert by account, security, date and currency).
 */
export function filePositions(
  holdings: readonly SureHoldingValues[],
  trades: readonly SureTradeValues[],
  accountCurrency: (accountId: string) => string,
): FilePosition[] {
  const byKey = groupBy(holdings);
  const tradesByKey = groupBy(trades);
  return [...byKey].map(([key, records]) => {
    const first = records[0]!;
    const own = accountCurrency(first.account_id);
    const currency = records.some((record) => record.currency === own) ? own : first.currency;
    const byDay = new Map<string, SureHoldingValues>();
    for (const record of records) if (record.currency === currency) byDay.set(record.date, record);
    const days = [...byDay.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    // Same-day trades apply in the file's order, as the sync applies them (by when they were written).
    const positionTrades = (tradesByKey.get(key) ?? []).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    return { accountId: first.account_id, ticker: first.ticker, currency, holdings: days, trades: positionTrades };
  });
}

/**
 * Where the quantity the trades give on a holding's day is not the holding's, a trade of the
 * difference that day. A buy is priced so the position's average cost (Hearth's cost basis: the
 * weighted price of its buys, holdings/holding-calculator.ts) becomes the holding's cost basis;
 * for a position no trade opened that is the cost basis itself. A sell, or a holding without a
 * cost basis (or one no buy can reach), takes the holding's price.
 */
export function holdingTrades(position: FilePosition): HoldingTrade[] {
  const made: HoldingTrade[] = [];
  let qty = 0n;
  let boughtQty = 0n;
  // Sum of qty x price over the buys: 10^-8 x 10^-10.
  let boughtCost = 0n;
  const apply = (tradeQty: bigint, price: bigint) => {
    qty += tradeQty;
    if (tradeQty > 0n) {
      boughtQty += tradeQty;
      boughtCost += tradeQty * price;
    }
  };
  let next = 0;
  for (const holding of position.holdings) {
    for (; next < position.trades.length && position.trades[next]!.date <= holding.date; next++) {
      const trade = position.trades[next]!;
      apply(toScaled(trade.qty, QTY_SCALE), toScaled(trade.price, TRADE_PRICE_SCALE));
    }
    const difference = toScaled(holding.qty, QTY_SCALE) - qty;
    if (difference === 0n) continue;
    const price = difference > 0n ? buyPrice(holding, difference, boughtQty, boughtCost) : toScaled(holding.price, TRADE_PRICE_SCALE);
    apply(difference, price);
    made.push({ holding, qty: difference, price });
  }
  return made;
}

/** The unit price (10^-10) of a buy of `qty` that makes the average cost the holding's cost basis; else the holding's price. */
function buyPrice(holding: SureHoldingValues, qty: bigint, boughtQty: bigint, boughtCost: bigint): bigint {
  const price = toScaled(holding.price, TRADE_PRICE_SCALE);
  if (holding.cost_basis === null) return price;
  const target = toScaled(holding.cost_basis, TRADE_PRICE_SCALE) * (boughtQty + qty) - boughtCost;
  // Rounded half up (both positive): the price column's scale.
  const reaching = (target * 2n + qty) / (2n * qty);
  return reaching > 0n ? reaching : price;
}

/** A trade price (10^-10) at the scale holdings are priced in (10^-4), as the sync rounds it. */
export const holdingScalePrice = (price: bigint): bigint => rescale(price, TRADE_PRICE_SCALE, PRICE_SCALE);
