// Properties of investment balances over random trade and price histories: the
// holdings calculator and the balance calculator together, as the materializer runs them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculateBalances, calculatorAccountOf, type CalculatorEntry } from "../src/balances/balance-calculator";
import { dayNumberToIso, isoToDayNumber } from "../src/balances/calendar-days";
import { PRICE_SCALE, QTY_SCALE } from "../src/holdings/fixed-point";
import { calculateHoldings, priceSeriesOf, type PositionStart, type PositionTrade } from "../src/holdings/holding-calculator";
import { positionDays, priceOfDay } from "../src/holdings/holding-days";
import { positionKeyOf } from "../src/holdings/holding-ids";
import { positionSpans } from "../src/holdings/position-spans";
import { tradeAmountCents } from "../src/trades/trade-amounts";

const NUM_RUNS = 200;
const FIRST = isoToDayNumber("2024-01-01");
const SECURITIES = ["AAA", "BBB", "CCC"];
const brokerage = calculatorAccountOf("investment");

const history = fc.record({
  span: fc.integer({ min: 1, max: 90 }),
  openingCents: fc.integer({ min: 0, max: 10_000_000 }),
  trades: fc.array(
    fc.record({
      offset: fc.integer({ min: 1, max: 89 }),
      security: fc.constantFrom(...SECURITIES),
      qty: fc.integer({ min: -500, max: 500 }).filter((q) => q !== 0),
      qtyDecimals: fc.integer({ min: 0, max: 3 }),
      price: fc.integer({ min: 1, max: 5_000_000 }), // 10^-4 units: up to 500.0000
      fee: fc.integer({ min: 0, max: 1000 }),
    }),
    { maxLength: 40 },
  ),
  prices: fc.array(
    fc.record({ offset: fc.integer({ min: 0, max: 89 }), security: fc.constantFrom(...SECURITIES), price: fc.integer({ min: 1, max: 5_000_000 }) }),
    {
      maxLength: 40,
    },
  ),
  cashFlows: fc.array(fc.record({ offset: fc.integer({ min: 1, max: 89 }), amount: fc.integer({ min: -100_000, max: 100_000 }) }), { maxLength: 10 }),
  windowOffset: fc.integer({ min: 1, max: 89 }),
});

type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

/** What the materializer hands the two calculators for a history. */
function inputsOf(h: History) {
  const from = dayNumberToIso(FIRST);
  const to = dayNumberToIso(FIRST + h.span);
  const day = (offset: number) => dayNumberToIso(FIRST + Math.min(offset, h.span));
  const positions: PositionTrade[] = h.trades.map((t) => ({
    date: day(t.offset),
    securityId: t.security,
    qty: BigInt(t.qty) * 10n ** BigInt(QTY_SCALE - t.qtyDecimals),
    price: BigInt(t.price),
  }));
  const entries: CalculatorEntry[] = [
    ...positions.map((p, i) => ({
      date: p.date,
      kind: "trade" as const,
      amountCents: Number(tradeAmountCents(p.qty, (Number(p.price) / 10 ** PRICE_SCALE).toFixed(PRICE_SCALE), (h.trades[i]!.fee / 100).toFixed(2), "USD")),
    })),
    ...h.cashFlows.map((c) => ({ date: day(c.offset), kind: "transaction" as const, amountCents: c.amount })),
  ];
  const prices = new Map<string, Map<string, bigint>>();
  for (const p of h.prices) {
    const bySecurity = prices.get(p.security) ?? new Map<string, bigint>();
    bySecurity.set(day(p.offset), BigInt(p.price));
    prices.set(p.security, bySecurity);
  }
  return { from, to, positions, entries, prices };
}

/** The trades from `from` on, and what those before leave of each position (as the materializer's windowStart sums them in SQL). */
function splitAt(trades: readonly PositionTrade[], from: string) {
  const before = new Map<string, PositionStart>();
  const earlier = trades.map((trade, index) => ({ trade, index })).filter(({ trade }) => trade.date < from);
  earlier.sort((a, b) => a.trade.date.localeCompare(b.trade.date) || a.index - b.index);
  for (const { trade } of earlier) {
    const start = before.get(trade.securityId) ?? { qty: 0n, boughtQty: 0n, boughtCost: 0n, price: 0n, priceDay: 0 };
    start.qty += trade.qty;
    if (trade.qty > 0n) {
      start.boughtQty += trade.qty;
      start.boughtCost += trade.qty * trade.price;
    }
    start.price = trade.price;
    start.priceDay = isoToDayNumber(trade.date);
    before.set(trade.securityId, start);
  }
  return { before, after: trades.filter((trade) => trade.date >= from) };
}

const seriesOf = (prices: Map<string, Map<string, bigint>>) => new Map([...prices].map(([security, byDay]) => [security, priceSeriesOf(byDay)]));

function fullRun(h: History) {
  const { from, to, positions, entries, prices } = inputsOf(h);
  const holdings = calculateHoldings({ trades: positions, prices: seriesOf(prices), from, to, digits: 2 });
  const values = new Map([...holdings.valueByDate].map(([date, cents]) => [date, Number(cents)]));
  const balances = calculateBalances({
    account: brokerage,
    entries,
    from,
    to,
    start: { endCashCents: h.openingCents, endNonCashCents: 0 },
    holdingsValueByDate: values,
  });
  return { holdings, values, balances };
}

describe("investment balances over random trade and price histories", () => {
  it("every day: the non-cash balance is the holdings value (so the balance is cash + holdings), and a day starts where the previous ended", () => {
    fc.assert(
      fc.property(history, (h) => {
        const { values, balances } = fullRun(h);
        let previous: (typeof balances)[number] | undefined;
        for (const row of balances) {
          expect(row.endNonCashCents).toBe(values.get(row.date) ?? 0);
          if (previous) {
            expect(row.startCashCents).toBe(previous.endCashCents);
            expect(row.startNonCashCents).toBe(previous.endNonCashCents);
          }
          previous = row;
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("market flows = the change in holdings value minus net buys; cash moves by its flows alone", () => {
    fc.assert(
      fc.property(history, (h) => {
        const { values, balances } = fullRun(h);
        for (const row of balances) {
          const before = values.get(dayNumberToIso(isoToDayNumber(row.date) - 1)) ?? 0;
          const netBuys = row.nonCashInflowsCents - row.nonCashOutflowsCents;
          expect(row.netMarketFlowsCents).toBe((values.get(row.date) ?? 0) - before - netBuys);
          expect(row.endCashCents).toBe(row.startCashCents + row.cashInflowsCents - row.cashOutflowsCents);
          expect(row.cashAdjustmentsCents).toBe(0);
          expect(row.nonCashAdjustmentsCents).toBe(0);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a sync from any day, starting from the stored day before, equals the full one", () => {
    fc.assert(
      fc.property(history, (h) => {
        const { from, to, positions, entries, prices } = inputsOf(h);
        const full = fullRun(h);
        const windowStart = dayNumberToIso(Math.min(FIRST + h.windowOffset, isoToDayNumber(to)));
        // What the materializer reads for a window: prices from its first day, and each security's last one before it.
        const windowPrices = new Map([...prices].map(([security, byDay]) => [security, new Map([...byDay].filter(([date]) => date >= windowStart))]));
        const pricesBefore = new Map<string, { date: string; price: bigint }>();
        for (const [security, byDay] of prices) {
          const earlier = [...byDay].filter(([date]) => date < windowStart).sort(([a], [b]) => a.localeCompare(b));
          const last = earlier.at(-1);
          if (last) pricesBefore.set(security, { date: last[0], price: last[1] });
        }
        const holdings = calculateHoldings({ trades: positions, prices: seriesOf(windowPrices), pricesBefore, from: windowStart, to, digits: 2 });
        expect(holdings.rows).toEqual(full.holdings.rows.filter((row) => row.date >= windowStart));
        // As the materializer runs a window: the positions the earlier trades left (summed, as the database does) instead of those trades.
        const { before, after } = splitAt(positions, windowStart);
        const summed = calculateHoldings({
          trades: after,
          positionsBefore: before,
          prices: seriesOf(windowPrices),
          pricesBefore,
          from: windowStart,
          to,
          digits: 2,
        });
        expect(summed).toEqual(holdings);
        // And the window's spans are the full run's from its first day on (the span carried in keeps its start and figures).
        const allSpans = positionSpans(positions);
        expect(positionSpans(after, before)).toEqual(allSpans.filter((span) => span.startDay >= isoToDayNumber(windowStart)));
        const values = new Map([...holdings.valueByDate].map(([date, cents]) => [date, Number(cents)]));
        const dayBefore = full.balances.find((row) => row.date === dayNumberToIso(isoToDayNumber(windowStart) - 1))!;
        const tail = calculateBalances({
          account: brokerage,
          entries,
          from: windowStart,
          to,
          start: { endCashCents: dayBefore.endCashCents, endNonCashCents: dayBefore.endNonCashCents },
          holdingsValueByDate: values,
        });
        expect(tail).toEqual(full.balances.filter((row) => row.date >= windowStart));
        expect(from <= windowStart).toBe(true);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("position spans priced day by day (as reads price them) give exactly the calculator's daily rows", () => {
    fc.assert(
      fc.property(history, (h) => {
        const { from, to, positions, prices } = inputsOf(h);
        const series = seriesOf(prices);
        const expected = calculateHoldings({ trades: positions, prices: series, from, to, digits: 2 }).rows.map(
          ({ securityId, date, qty, price, amountCents, avgCost }) => ({ securityId, date, qty, price, amountCents, avgCost }),
        );
        const spans = positionSpans(positions);
        const actual = [];
        for (const security of SECURITIES) {
          const own = spans.filter((span) => span.securityId === security);
          const days = positionDays(
            own.map((span) => ({ ...span, positionKey: positionKeyOf("account", security, "USD"), currency: "USD" })),
            series.get(security),
            own.map((span) => span.startDay),
            own.map((span) => Math.min(span.endDay ?? isoToDayNumber(to), isoToDayNumber(to))),
          );
          for (const day of days) {
            const { span } = day;
            actual.push({ securityId: security, date: day.date, qty: span.qty, price: day.price, amountCents: day.amountCents, avgCost: span.avgCost });
          }
        }
        const order = (a: { date: string; securityId: string }, b: { date: string; securityId: string }) =>
          a.date.localeCompare(b.date) || a.securityId.localeCompare(b.securityId);
        expect(actual.sort(order)).toEqual(expected.sort(order));
        // And the price a read works out from the latest stored price on or before the day is the same.
        for (const row of actual) {
          const own = series.get(row.securityId);
          const day = isoToDayNumber(row.date);
          let latest: { day: number; price: bigint } | null = null;
          for (let i = 0; own && i < own.days.length && own.days[i]! <= day; i++) latest = { day: own.days[i]!, price: own.prices[i]! };
          const span = spans.filter((candidate) => candidate.securityId === row.securityId && candidate.startDay <= day).at(-1)!;
          expect(priceOfDay(span, latest)).toBe(row.price);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
