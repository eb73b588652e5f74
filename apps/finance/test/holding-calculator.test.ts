// Holdings by day, mirroring Sure's test/models/holding/forward_calculator_test.rb and
// holding_test.rb (avg_cost). Expected numbers come from those tests, worked in cents here.
import { describe, expect, it } from "vitest";
import { calculateHoldings, priceSeriesOf, type PositionTrade } from "../src/holdings/holding-calculator";
import { PRICE_SCALE, QTY_SCALE, toScaled } from "../src/holdings/fixed-point";

const qty = (text: string) => toScaled(text, QTY_SCALE);
const price = (text: string) => toScaled(text, PRICE_SCALE);
const trade = (date: string, securityId: string, q: string, p: string): PositionTrade => ({ date, securityId, qty: qty(q), price: price(p) });

/** Daily prices of a security: [date, price] pairs. */
function priced(entries: Record<string, [string, string][]>) {
  return new Map(Object.entries(entries).map(([security, days]) => [security, priceSeriesOf(new Map(days.map(([date, p]) => [date, price(p)])))]));
}

/** [security, date, qty, price, amount in dollars] rows, as Sure's tests list them. */
function rowsOf(result: ReturnType<typeof calculateHoldings>) {
  return result.rows.map((row) => [row.securityId, row.date, Number(row.qty) / 1e8, Number(row.price) / 1e4, Number(row.amountCents) / 100]);
}

describe("calculateHoldings", () => {
  it("no trades, no holdings (Sure: 'no holdings')", () => {
    const result = calculateHoldings({ trades: [], prices: new Map(), from: "2025-01-01", to: "2025-01-03", digits: 2 });
    expect(result.rows).toEqual([]);
    expect([...result.valueByDate.values()]).toEqual([0n, 0n, 0n]);
  });

  it("forward portfolio calculation (Sure's VOO/WMT/AMZN case, from each security's first trade)", () => {
    const prices = priced({
      VOO: [
        ["2025-01-01", "460"],
        ["2025-01-02", "470"],
        ["2025-01-03", "480"],
        ["2025-01-04", "490"],
        ["2025-01-05", "500"],
      ],
      WMT: ["01", "02", "03", "04", "05"].map((d) => [`2025-01-${d}`, "100"] as [string, string]),
      AMZN: ["01", "02", "03", "04", "05"].map((d) => [`2025-01-${d}`, "200"] as [string, string]),
    });
    const trades = [
      trade("2025-01-02", "VOO", "20", "470"),
      trade("2025-01-03", "VOO", "-15", "480"),
      trade("2025-01-04", "VOO", "5", "490"),
      trade("2025-01-03", "AMZN", "1", "200"),
      trade("2025-01-04", "AMZN", "-1", "200"),
      trade("2025-01-04", "WMT", "100", "100"),
    ];
    const result = calculateHoldings({ trades, prices, from: "2025-01-01", to: "2025-01-05", digits: 2 });
    expect(rowsOf(result)).toEqual([
      ["VOO", "2025-01-02", 20, 470, 9400],
      ["VOO", "2025-01-03", 5, 480, 2400],
      ["AMZN", "2025-01-03", 1, 200, 200],
      ["VOO", "2025-01-04", 10, 490, 4900],
      ["AMZN", "2025-01-04", 0, 200, 0],
      ["WMT", "2025-01-04", 100, 100, 10000],
      ["VOO", "2025-01-05", 10, 500, 5000],
      ["AMZN", "2025-01-05", 0, 200, 0],
      ["WMT", "2025-01-05", 100, 100, 10000],
    ]);
    expect(Object.fromEntries([...result.valueByDate].map(([d, v]) => [d, Number(v) / 100]))).toEqual({
      "2025-01-01": 0,
      "2025-01-02": 9400,
      "2025-01-03": 2600,
      "2025-01-04": 14900,
      "2025-01-05": 15000,
    });
  });

  it("offline tickers are valued at their most recent trade price, carried over days without one (Sure: 'offline tickers sync holdings based on most recent trade price')", () => {
    const trades = [trade("2025-01-02", "OFF", "1", "90"), trade("2025-01-04", "OFF", "1", "100")];
    const result = calculateHoldings({ trades, prices: new Map(), from: "2025-01-01", to: "2025-01-05", digits: 2 });
    expect(rowsOf(result)).toEqual([
      ["OFF", "2025-01-02", 1, 90, 90],
      ["OFF", "2025-01-03", 1, 90, 90],
      ["OFF", "2025-01-04", 2, 100, 200],
      ["OFF", "2025-01-05", 2, 100, 200],
    ]);
  });

  it("a stored price of the day wins over the trade's price (Sure's materializer_test: DB price 215 over trade price 200)", () => {
    const result = calculateHoldings({
      trades: [trade("2025-01-02", "AAPL", "1", "200")],
      prices: priced({ AAPL: [["2025-01-02", "215"]] }),
      from: "2025-01-01",
      to: "2025-01-03",
      digits: 2,
    });
    expect(rowsOf(result)).toEqual([
      ["AAPL", "2025-01-02", 1, 215, 215],
      ["AAPL", "2025-01-03", 1, 215, 215],
    ]);
  });

  it("avg cost is the weighted average of the buys so far; sells leave it (Sure's holding_test: AMZN 10@212 and 15@216 give 214.4)", () => {
    const trades = [trade("2025-01-01", "AMZN", "10", "212"), trade("2025-01-02", "AMZN", "15", "216"), trade("2025-01-03", "AMZN", "-20", "230")];
    const result = calculateHoldings({ trades, prices: new Map(), from: "2025-01-01", to: "2025-01-03", digits: 2 });
    expect(result.rows.map((row) => Number(row.avgCost) / 1e4)).toEqual([212, 214.4, 214.4]);
    // NVDA 5@128 and 30@124: 124.5714... to four places.
    const nvda = calculateHoldings({
      trades: [trade("2025-01-01", "NVDA", "5", "128"), trade("2025-01-01", "NVDA", "30", "124")],
      prices: new Map(),
      from: "2025-01-01",
      to: "2025-01-01",
      digits: 2,
    });
    expect(nvda.rows[0]!.avgCost).toBe(1245714n);
  });

  it("a window starting later gives the same rows as the full run for its days", () => {
    const trades = [trade("2025-01-01", "A", "3", "10"), trade("2025-01-03", "A", "2", "12.5"), trade("2025-01-04", "B", "1.5", "7")];
    const prices = priced({
      A: [
        ["2025-01-02", "11"],
        ["2025-01-05", "13"],
      ],
      B: [["2025-01-05", "8"]],
    });
    const full = calculateHoldings({ trades, prices, from: "2024-12-31", to: "2025-01-06", digits: 2 });
    const windowPrices = priced({ A: [["2025-01-05", "13"]], B: [["2025-01-05", "8"]] });
    const tail = calculateHoldings({
      trades,
      prices: windowPrices,
      pricesBefore: new Map([["A", { date: "2025-01-02", price: price("11") }]]),
      from: "2025-01-04",
      to: "2025-01-06",
      digits: 2,
    });
    expect(tail.rows).toEqual(full.rows.filter((row) => row.date >= "2025-01-04"));
    expect([...tail.valueByDate]).toEqual([...full.valueByDate].filter(([date]) => date >= "2025-01-04"));
  });

  it("values a fractional quantity to the cent, rounding half away from zero once", () => {
    const result = calculateHoldings({
      trades: [trade("2025-01-01", "BTC", "0.00012345", "43210.5")],
      prices: new Map(),
      from: "2025-01-01",
      to: "2025-01-01",
      digits: 2,
    });
    // 0.00012345 x 43210.5 = 5.334336... -> 5.33
    expect(result.rows[0]!.amountCents).toBe(533n);
  });
});
