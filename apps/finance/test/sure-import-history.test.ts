// How a SureImport turns Sure's Holding and Balance records into what Hearth derives holdings and
// balances from (trades, prices, reconciliations): the pure steps of imports/publish/sure. The
// whole path, through HTTP and a later sync, is packages/system-tests/test/import-sure-history.test.ts.
// Sure: data_importer.rb import_holdings and import_balances; data_importer_test.rb cases named below.
import { describe, expect, it } from "vitest";
import type { DailyBalance } from "../src/balances/balance-calculator";
import { PRICE_SCALE, QTY_SCALE, plainScaled, toScaled } from "../src/holdings/fixed-point";
import type { SureHoldingValues, SureTradeValues } from "../src/imports/ndjson";
import { reconciliationsFor } from "../src/imports/publish/sure/balance-history";
import { holdingPricesToStore } from "../src/imports/publish/sure/holding-price-days";
import { filePositions, holdingTrades } from "../src/imports/publish/sure/holding-positions";
import { TRADE_PRICE_SCALE } from "../src/trades/trade-amounts";

const holding = (date: string, qty: string, price: string, more: Partial<SureHoldingValues> = {}): SureHoldingValues => ({
  line: 0,
  source_id: null,
  account_id: "acct",
  date,
  security_id: null,
  ticker: "VTI",
  security_name: null,
  exchange_operating_mic: null,
  exchange_mic: null,
  exchange_acronym: null,
  country_code: null,
  website_url: null,
  security_kind: "standard",
  qty,
  price,
  amount_cents: 0n,
  currency: "USD",
  cost_basis: null,
  cost_basis_source: null,
  cost_basis_locked: false,
  security_locked: false,
  ...more,
});

const trade = (date: string, qty: string, price: string): SureTradeValues => ({
  line: 0,
  source_id: null,
  account_id: "acct",
  date,
  security_id: null,
  ticker: "VTI",
  security_name: null,
  exchange_operating_mic: null,
  qty,
  price,
  amount_cents: 0n,
  currency: "USD",
});

/** The trades made for the file's one position, as [date, qty, price]. */
function madeTrades(holdings: SureHoldingValues[], trades: SureTradeValues[] = []) {
  const [position] = filePositions(holdings, trades, () => "USD");
  return holdingTrades(position!).map((made) => [made.holding.date, plainScaled(made.qty, QTY_SCALE), plainScaled(made.price, TRADE_PRICE_SCALE)]);
}

describe("holdings no trade explains become trades of the difference", () => {
  it("a position without trades opens on its first day at its cost basis, so Hearth's average cost is it (Sure: 'imports holding snapshots with security identity')", () => {
    expect(madeTrades([holding("2024-01-15", "100", "250.25", { cost_basis: "200" }), holding("2024-01-16", "100", "251")])).toEqual([
      ["2024-01-15", "100.0", "200.0"],
    ]);
  });

  it("a later quantity no trade explains is bought at the price that makes the average the record's cost basis, sold at its price", () => {
    // 40 at 120, then 50 at an average of 124: 10 bought at 140. Then 30: 20 sold at 150.
    expect(
      madeTrades([
        holding("2024-01-01", "40", "130", { cost_basis: "120" }),
        holding("2024-01-02", "50", "140", { cost_basis: "124" }),
        holding("2024-01-03", "30", "150", { cost_basis: "124" }),
      ]),
    ).toEqual([
      ["2024-01-01", "40.0", "120.0"],
      ["2024-01-02", "10.0", "140.0"],
      ["2024-01-03", "-20.0", "150.0"],
    ]);
  });

  it("the file's trades up to a holding's day count first: a position they explain needs nothing (Sure: 'round trips holding snapshots through full export')", () => {
    const trades = [trade("2024-01-02", "10", "100"), trade("2024-01-04", "-4", "120.5")];
    const holdings = ["2024-01-02", "2024-01-03"].map((date) => holding(date, "10", "100")).concat(holding("2024-01-04", "6", "120.5"));
    expect(madeTrades(holdings, trades)).toEqual([]);
    // A holding before the first trade: the quantity held before, bought then; the trade adds to it.
    expect(madeTrades([holding("2024-01-01", "5", "90", { cost_basis: "80" }), holding("2024-01-02", "15", "100")], trades)).toEqual([
      ["2024-01-01", "5.0", "80.0"],
    ]);
  });

  it("keeps one record a day in the account's currency, the last of the day (Sure: 'imports duplicate holding snapshots idempotently', 'imports same holding date in different currencies separately')", () => {
    const [position] = filePositions(
      [holding("2024-01-15", "100", "250"), holding("2024-01-15", "101", "250"), holding("2024-01-15", "100", "340", { currency: "CAD" })],
      [],
      () => "USD",
    );
    expect(position!.holdings.map((h) => [h.date, h.qty, h.currency])).toEqual([["2024-01-15", "101", "USD"]]);
  });
});

describe("a holding's price is stored only where the trades and prices before it would price it otherwise", () => {
  const p = (text: string) => toScaled(text, PRICE_SCALE);

  it("a trade's price stands for its day and after until a stored one is as recent, which wins its day", () => {
    const stored = holdingPricesToStore([
      {
        securityId: "s",
        currency: "USD",
        holdings: [
          { date: "2024-01-02", price: p("100") },
          { date: "2024-01-03", price: p("100") },
          { date: "2024-01-04", price: p("110") },
          { date: "2024-01-05", price: p("110") },
          { date: "2024-01-06", price: p("110") },
        ],
        trades: [
          { date: "2024-01-02", price: p("100") },
          { date: "2024-01-06", price: p("120") },
        ],
      },
    ]);
    expect(stored.map((price) => [price.date, price.price])).toEqual([
      ["2024-01-04", p("110")],
      ["2024-01-06", p("110")],
    ]);
  });

  it("stores one price a day per security and currency, for every account holding it", () => {
    const position = (holdings: [string, string][]) => ({
      securityId: "s",
      currency: "USD",
      holdings: holdings.map(([date, price]) => ({ date, price: p(price) })),
      trades: [],
    });
    const stored = holdingPricesToStore([
      position([["2024-01-01", "10"]]),
      position([
        ["2024-01-01", "11"],
        ["2024-01-02", "10"],
      ]),
    ]);
    expect(stored.map((price) => [price.date, price.price])).toEqual([["2024-01-01", p("10")]]);
  });
});

describe("recorded balances the entries do not give become reconciliations", () => {
  /** Daily rows of a cash account with these totals from `from` on. */
  const rows = (from: string, totals: number[]): DailyBalance[] =>
    totals.map((total, day) => ({
      date: `2024-01-${String(Number(from.slice(8)) + day).padStart(2, "0")}`,
      flowsFactor: 1,
      startCashCents: 0,
      startNonCashCents: 0,
      cashInflowsCents: 0,
      cashOutflowsCents: 0,
      nonCashInflowsCents: 0,
      nonCashOutflowsCents: 0,
      netMarketFlowsCents: 0,
      cashAdjustmentsCents: 0,
      nonCashAdjustmentsCents: 0,
      endCashCents: total,
      endNonCashCents: 0,
    }));
  const recorded = (days: [string, number][]) => days.map(([date, cents]) => ({ date, cents: BigInt(cents) }));
  const dates = (balances: { date: string; cents: bigint }[]) => balances.map((balance) => [balance.date, Number(balance.cents)]);

  it("only where the balance moved by what came before does not give the day's (Sure: 'imports raw balance history records')", () => {
    // Opening 900 on the 1st, a 50 outflow on the 4th; recorded 1200, 1200, 1150, 900, 900 from the 2nd.
    const computed = rows("2024-01-01", [900, 900, 900, 850, 850, 850]);
    const made = reconciliationsFor(
      recorded([
        ["2024-01-02", 1200],
        ["2024-01-03", 1200],
        ["2024-01-04", 1150],
        ["2024-01-05", 900],
        ["2024-01-06", 900],
      ]),
      computed,
      new Set(["2024-01-01"]),
    );
    expect(dates(made)).toEqual([
      ["2024-01-02", 1200],
      ["2024-01-05", 900],
    ]);
  });

  it("a valuation already on a day keeps it, and the days after it move with it again", () => {
    const computed = rows("2024-01-01", [100, 100, 500, 500]);
    const made = reconciliationsFor(
      recorded([
        ["2024-01-02", 200],
        ["2024-01-03", 700],
        ["2024-01-04", 500],
      ]),
      computed,
      new Set(["2024-01-03"]),
    );
    expect(dates(made)).toEqual([["2024-01-02", 200]]);
  });

  it("a day before the history starts it (no balance is none of the recorded ones), a day after it is the last balance carried", () => {
    const computed = rows("2024-01-03", [0, 0]);
    expect(dates(reconciliationsFor(recorded([["2024-01-01", 0]]), computed, new Set()))).toEqual([["2024-01-01", 0]]);
    expect(dates(reconciliationsFor(recorded([["2024-01-09", 0]]), computed, new Set()))).toEqual([]);
    expect(dates(reconciliationsFor(recorded([["2024-01-09", 5]]), [], new Set()))).toEqual([["2024-01-09", 5]]);
  });
});
