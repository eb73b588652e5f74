// An account's positions as spans: a position (quantity, average cost, last trade price) changes
// only on the days its security trades, so one span per security and trade day says all the
// calculator's daily rows say but the price, which reads work out per day (holding-days.ts).
// Pure: the same trades give the same spans, whatever the window a sync starts from.
import { avgCostOf, orderedTrades, type PositionStart, type PositionTrade } from "./holding-calculator";

export interface PositionSpan {
  securityId: string;
  /** Day numbers (days since 1970-01-01); end null: on to today. */
  startDay: number;
  endDay: number | null;
  /** 10^-8 units, after the start day's trades. */
  qty: bigint;
  /** 10^-4 of the account's currency; null before any buy. */
  avgCost: bigint | null;
  /** The last trade's unit price (10^-4) and its day: the price until a stored one is as recent. */
  tradePrice: bigint;
  tradePriceDay: number;
}

interface Running {
  qty: bigint;
  boughtQty: bigint;
  boughtCost: bigint;
  open: PositionSpan | null;
}

/**
 * Spans per security, oldest first within a security; same-day trades apply in array order (as
 * the calculator's). With `positionsBefore` (positions at the end of the day before the first
 * trade given), the spans of those trades only: what a sync from a day on rewrites.
 */
export function positionSpans(trades: readonly PositionTrade[], positionsBefore?: ReadonlyMap<string, PositionStart>): PositionSpan[] {
  const running = new Map<string, Running>();
  for (const [securityId, start] of positionsBefore ?? []) {
    running.set(securityId, { qty: start.qty, boughtQty: start.boughtQty, boughtCost: start.boughtCost, open: null });
  }
  const spans: PositionSpan[] = [];
  for (const { trade, day } of orderedTrades(trades)) {
    let state = running.get(trade.securityId);
    if (!state) {
      state = { qty: 0n, boughtQty: 0n, boughtCost: 0n, open: null };
      running.set(trade.securityId, state);
    }
    state.qty += trade.qty;
    if (trade.qty > 0n) {
      state.boughtQty += trade.qty;
      state.boughtCost += trade.qty * trade.price;
    }
    const avgCost = avgCostOf(state.boughtQty, state.boughtCost);
    if (state.open && state.open.startDay === day) {
      // A later trade of the same day: the day's span ends up with its figures.
      Object.assign(state.open, { qty: state.qty, avgCost, tradePrice: trade.price });
      continue;
    }
    if (state.open) state.open.endDay = day - 1;
    state.open = { securityId: trade.securityId, startDay: day, endDay: null, qty: state.qty, avgCost, tradePrice: trade.price, tradePriceDay: day };
    spans.push(state.open);
  }
  return spans;
}
