// Hand-checked balances: every expected number below was worked out by hand from the rules in
// balance-calculator.ts, never produced by the code under test.
import { describe, expect, it } from "vitest";
import {
  balanceTypeOf,
  calculateBalances,
  calculatorAccountOf,
  classificationOf,
  openingStart,
  flowsFactorOf,
  type AccountType,
  type CalculatorAccount,
  type CalculatorEntry,
  type DailyBalance,
} from "../src/balances/balance-calculator";
import { dayNumberToIso, isoToDayNumber } from "../src/balances/calendar-days";

const depository: CalculatorAccount = calculatorAccountOf("depository");
const creditCard: CalculatorAccount = calculatorAccountOf("credit_card");
const brokerage: CalculatorAccount = calculatorAccountOf("investment");
const house: CalculatorAccount = calculatorAccountOf("property");
const mortgage: CalculatorAccount = calculatorAccountOf("loan");

const txn = (date: string, amountCents: number): CalculatorEntry => ({ date, kind: "transaction", amountCents });
const trade = (date: string, amountCents: number): CalculatorEntry => ({ date, kind: "trade", amountCents });
const valuation = (date: string, amountCents: number): CalculatorEntry => ({ date, kind: "valuation", amountCents });

/** A row of an account with no non-cash part: [date, start, inflows, outflows, adjustments, end]. */
type CashRow = [string, number, number, number, number, number];
function cashRows(flowsFactor: 1 | -1, rows: CashRow[]): DailyBalance[] {
  return rows.map(([date, start, inflows, outflows, adjustments, end]) => ({
    date,
    flowsFactor,
    startCashCents: start,
    startNonCashCents: 0,
    cashInflowsCents: inflows,
    cashOutflowsCents: outflows,
    nonCashInflowsCents: 0,
    nonCashOutflowsCents: 0,
    netMarketFlowsCents: 0,
    cashAdjustmentsCents: adjustments,
    nonCashAdjustmentsCents: 0,
    endCashCents: end,
    endNonCashCents: 0,
  }));
}

/** A row of an account with no cash part: [date, start, inflows, outflows, adjustments, end]. */
function nonCashRows(flowsFactor: 1 | -1, rows: CashRow[]): DailyBalance[] {
  return rows.map(([date, start, inflows, outflows, adjustments, end]) => ({
    date,
    flowsFactor,
    startCashCents: 0,
    startNonCashCents: start,
    cashInflowsCents: 0,
    cashOutflowsCents: 0,
    nonCashInflowsCents: inflows,
    nonCashOutflowsCents: outflows,
    netMarketFlowsCents: 0,
    cashAdjustmentsCents: 0,
    nonCashAdjustmentsCents: adjustments,
    endCashCents: 0,
    endNonCashCents: end,
  }));
}

function captureError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error("expected an Error to be thrown");
}

const endTotals = (rows: DailyBalance[]) => rows.map((row) => row.endCashCents + row.endNonCashCents);

describe("account types", () => {
  it.each<[AccountType, "asset" | "liability", string, 1 | -1]>([
    ["depository", "asset", "cash", 1],
    ["investment", "asset", "investment", 1],
    ["crypto", "asset", "investment", 1],
    ["property", "asset", "non_cash", 1],
    ["vehicle", "asset", "non_cash", 1],
    ["other_asset", "asset", "non_cash", 1],
    ["credit_card", "liability", "cash", -1],
    ["loan", "liability", "non_cash", -1],
    ["other_liability", "liability", "non_cash", -1],
  ])("%s is an %s with a %s balance and flows factor %i", (type, classification, balanceType, factor) => {
    expect(classificationOf(type)).toBe(classification);
    expect(balanceTypeOf(type)).toBe(balanceType);
    expect(flowsFactorOf(classificationOf(type))).toBe(factor);
    // Sure: among non-cash accounts only a loan's transactions move its balance.
    expect(calculatorAccountOf(type).valuationsOnly).toBe(balanceType === "non_cash" && type !== "loan");
  });

  it("refuses an unknown account type", () => {
    expect(() => classificationOf("savings" as AccountType)).toThrow(Error);
  });
});

describe("calculateBalances, cash accounts", () => {
  it("depository: valuations before, between and after entries, a valuation and a transaction on one day", () => {
    const rows = calculateBalances({
      account: depository,
      from: "2024-01-01",
      to: "2024-01-06",
      entries: [
        txn("2024-01-06", 2_000),
        valuation("2024-01-01", 100_000), // opening balance 1,000.00
        txn("2024-01-02", 2_500), // spend 25.00
        txn("2024-01-03", -50_000), // paycheck 500.00
        valuation("2024-01-04", 140_000), // statement says 1,400.00: 75.00 less than computed
        txn("2024-01-05", 1_000),
        valuation("2024-01-06", 150_000),
      ],
    });
    expect(rows).toEqual(
      cashRows(1, [
        ["2024-01-01", 0, 0, 0, 100_000, 100_000],
        ["2024-01-02", 100_000, 0, 2_500, 0, 97_500],
        ["2024-01-03", 97_500, 50_000, 0, 0, 147_500],
        ["2024-01-04", 147_500, 0, 0, -7_500, 140_000],
        ["2024-01-05", 140_000, 0, 1_000, 0, 139_000],
        // 139,000 - 2,000 spent = 137,000 computed; the valuation sets 150,000.
        ["2024-01-06", 139_000, 0, 2_000, 13_000, 150_000],
      ]),
    );
  });

  it("credit card: purchases raise and payments lower the amount owed (flows factor -1)", () => {
    const rows = calculateBalances({
      account: creditCard,
      from: "2024-03-01",
      to: "2024-03-04",
      entries: [valuation("2024-03-01", 20_000), txn("2024-03-02", 4_550), txn("2024-03-03", -10_000), txn("2024-03-04", -550), txn("2024-03-04", 1_200)],
    });
    expect(rows).toEqual(
      cashRows(-1, [
        ["2024-03-01", 0, 0, 0, 20_000, 20_000],
        ["2024-03-02", 20_000, 0, 4_550, 0, 24_550],
        ["2024-03-03", 24_550, 10_000, 0, 0, 14_550],
        // refund 5.50 in, purchase 12.00 out: owed grows by 6.50
        ["2024-03-04", 14_550, 550, 1_200, 0, 15_200],
      ]),
    );
  });

  it("a credit card valuation below the computed debt shows as a negative adjustment", () => {
    const rows = calculateBalances({
      account: creditCard,
      from: "2024-03-01",
      to: "2024-03-02",
      start: { endCashCents: 30_000, endNonCashCents: 0 },
      entries: [txn("2024-03-02", 1_000), valuation("2024-03-02", 25_000)],
    });
    // computed 30,000 + 1,000 = 31,000 owed; valued at 25,000
    expect(rows).toEqual(
      cashRows(-1, [
        ["2024-03-01", 30_000, 0, 0, 0, 30_000],
        ["2024-03-02", 30_000, 0, 1_000, -6_000, 25_000],
      ]),
    );
  });

  it("several valuations on one day: the last one in array order wins", () => {
    const run = (entries: CalculatorEntry[]) => calculateBalances({ account: depository, from: "2024-09-01", to: "2024-09-02", entries });
    const entries = [valuation("2024-09-01", 1_000), txn("2024-09-01", 300), valuation("2024-09-01", 2_000), valuation("2024-09-01", 1_500)];
    expect(run(entries)).toEqual(
      cashRows(1, [
        ["2024-09-01", 0, 0, 300, 1_800, 1_500],
        ["2024-09-02", 1_500, 0, 0, 0, 1_500],
      ]),
    );
    expect(endTotals(run([...entries].reverse()))).toEqual([1_000, 1_000]);
  });

  it("a transfer between two currencies: each account gets its own rows in its own currency", () => {
    const day = "2024-06-10";
    const usd = calculateBalances({
      account: depository,
      from: "2024-06-09",
      to: "2024-06-11",
      start: { endCashCents: 100_000, endNonCashCents: 0 },
      entries: [txn(day, 10_000)], // 100.00 USD out
    });
    const eur = calculateBalances({
      account: depository,
      from: "2024-06-09",
      to: "2024-06-11",
      start: { endCashCents: 20_000, endNonCashCents: 0 },
      entries: [txn(day, -9_000)], // 90.00 EUR in
    });
    expect(usd).toEqual(
      cashRows(1, [
        ["2024-06-09", 100_000, 0, 0, 0, 100_000],
        ["2024-06-10", 100_000, 0, 10_000, 0, 90_000],
        ["2024-06-11", 90_000, 0, 0, 0, 90_000],
      ]),
    );
    expect(eur).toEqual(
      cashRows(1, [
        ["2024-06-09", 20_000, 0, 0, 0, 20_000],
        ["2024-06-10", 20_000, 9_000, 0, 0, 29_000],
        ["2024-06-11", 29_000, 0, 0, 0, 29_000],
      ]),
    );
  });
});

describe("calculateBalances, recomputation after a change", () => {
  const base = [valuation("2024-05-03", 60_000), txn("2024-05-04", 1_000)];
  const run = (entries: CalculatorEntry[], from = "2024-05-01") =>
    calculateBalances({ account: depository, from, to: "2024-05-05", start: { endCashCents: 50_000, endNonCashCents: 0 }, entries });

  it("before the change", () => {
    expect(run(base)).toEqual(
      cashRows(1, [
        ["2024-05-01", 50_000, 0, 0, 0, 50_000],
        ["2024-05-02", 50_000, 0, 0, 0, 50_000],
        ["2024-05-03", 50_000, 0, 0, 10_000, 60_000],
        ["2024-05-04", 60_000, 0, 1_000, 0, 59_000],
        ["2024-05-05", 59_000, 0, 0, 0, 59_000],
      ]),
    );
  });

  it("a backdated inflow changes the balances from its day on, until a valuation absorbs it", () => {
    const rows = run([...base, txn("2024-05-02", -2_000)]);
    expect(rows).toEqual(
      cashRows(1, [
        ["2024-05-01", 50_000, 0, 0, 0, 50_000],
        ["2024-05-02", 50_000, 2_000, 0, 0, 52_000],
        ["2024-05-03", 52_000, 0, 0, 8_000, 60_000],
        ["2024-05-04", 60_000, 0, 1_000, 0, 59_000],
        ["2024-05-05", 59_000, 0, 0, 0, 59_000],
      ]),
    );
  });

  it("a backdated entry after the last valuation moves every later end balance", () => {
    const rows = run([...base, txn("2024-05-04", -2_000)]);
    expect(endTotals(rows)).toEqual([50_000, 50_000, 60_000, 61_000, 61_000]);
  });

  it("a deleted entry: the rows computed without it", () => {
    const withoutSpend = run([base[0]!]);
    expect(endTotals(withoutSpend)).toEqual([50_000, 50_000, 60_000, 60_000, 60_000]);
    const withoutValuation = run([base[1]!]);
    expect(endTotals(withoutValuation)).toEqual([50_000, 50_000, 50_000, 49_000, 49_000]);
  });

  it("a window from the changed day on, started from the previous day's end, matches the full run", () => {
    const entries = [...base, txn("2024-05-04", -2_000)];
    const full = run(entries);
    const window = calculateBalances({
      account: depository,
      from: "2024-05-04",
      to: "2024-05-05",
      start: { endCashCents: 60_000, endNonCashCents: 0 },
      entries,
    });
    expect(window).toEqual(full.slice(3));
  });
});

describe("calculateBalances, investment accounts", () => {
  it("trades move cash and holdings oppositely; market flows move holdings; a valuation sets the cash part", () => {
    const rows = calculateBalances({
      account: brokerage,
      from: "2024-07-01",
      to: "2024-07-05",
      entries: [
        txn("2024-07-01", -100_000), // deposit 1,000.00
        trade("2024-07-02", 60_000), // buy 600.00
        trade("2024-07-04", -20_000), // sell 200.00
        valuation("2024-07-05", 110_000),
      ],
      marketFlowsByDate: new Map([["2024-07-03", 5_000]]),
    });
    const row = (date: string, r: Partial<DailyBalance>): DailyBalance => ({
      date,
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
      endCashCents: 0,
      endNonCashCents: 0,
      ...r,
    });
    expect(rows).toEqual([
      row("2024-07-01", { cashInflowsCents: 100_000, endCashCents: 100_000 }),
      row("2024-07-02", {
        startCashCents: 100_000,
        cashOutflowsCents: 60_000,
        nonCashInflowsCents: 60_000,
        endCashCents: 40_000,
        endNonCashCents: 60_000,
      }),
      row("2024-07-03", { startCashCents: 40_000, startNonCashCents: 60_000, netMarketFlowsCents: 5_000, endCashCents: 40_000, endNonCashCents: 65_000 }),
      row("2024-07-04", {
        startCashCents: 40_000,
        startNonCashCents: 65_000,
        cashInflowsCents: 20_000,
        nonCashOutflowsCents: 20_000,
        endCashCents: 60_000,
        endNonCashCents: 45_000,
      }),
      // holdings stay at 45,000 as the flows make them; the other 65,000 of 110,000 is cash
      row("2024-07-05", { startCashCents: 60_000, startNonCashCents: 45_000, cashAdjustmentsCents: 5_000, endCashCents: 65_000, endNonCashCents: 45_000 }),
    ]);
  });
});

describe("calculateBalances, non-cash accounts", () => {
  // Sure: forward_calculator_test.rb, "non cash accounts can only use valuations and transactions
  // will be recorded but ignored for balance calculation" (Property, Vehicle, OtherAsset, OtherLiability).
  it.each<AccountType>(["property", "vehicle", "other_asset", "other_liability"])(
    "%s: valuations set the value, transactions are recorded but move nothing",
    (type) => {
      const account = calculatorAccountOf(type);
      const rows = calculateBalances({
        account,
        from: "2024-08-01",
        to: "2024-08-04",
        start: openingStart(account, 2_000_000),
        entries: [valuation("2024-08-01", 2_000_000), txn("2024-08-02", 50_000), txn("2024-08-03", -100_000), valuation("2024-08-04", 1_900_000)],
      });
      // A 500.00 repair on a car worth 20,000.00 leaves it at 20,000.00 until the next valuation.
      expect(rows).toEqual(
        nonCashRows(flowsFactorOf(account.classification), [
          ["2024-08-01", 2_000_000, 0, 0, 0, 2_000_000],
          ["2024-08-02", 2_000_000, 0, 0, 0, 2_000_000],
          ["2024-08-03", 2_000_000, 0, 0, 0, 2_000_000],
          ["2024-08-04", 2_000_000, 0, 0, -100_000, 1_900_000],
        ]),
      );
    },
  );

  it("loan: a payment lowers the principal owed, a further draw raises it", () => {
    const rows = calculateBalances({
      account: mortgage,
      from: "2024-10-01",
      to: "2024-10-03",
      entries: [
        valuation("2024-10-01", 25_000_000),
        txn("2024-10-02", -150_000),
        trade("2024-10-03", 50_000) /* a trade on a non-cash account counts as a transaction */,
      ],
    });
    expect(rows).toEqual(
      nonCashRows(-1, [
        ["2024-10-01", 0, 0, 0, 25_000_000, 25_000_000],
        ["2024-10-02", 25_000_000, 150_000, 0, 0, 24_850_000],
        ["2024-10-03", 24_850_000, 0, 50_000, 0, 24_900_000],
      ]),
    );
  });
});

// Each case mirrors a test of Sure's test/models/balance/forward_calculator_test.rb (named in the
// title); the first row starts at the opening anchor with no adjustment, as Sure's does.
describe("calculateBalances, Sure's forward calculator cases", () => {
  const opening = (account: CalculatorAccount, anchor: CalculatorEntry, entries: CalculatorEntry[], to: string) =>
    calculateBalances({ account, from: anchor.date, to, start: openingStart(account, anchor.amountCents), entries: [anchor, ...entries] });

  it("account without opening anchor starts at zero balance: a zero row the day before the first entry", () => {
    expect(calculateBalances({ account: depository, from: "2024-05-01", to: "2024-05-02", entries: [txn("2024-05-02", -1_000)] })).toEqual(
      cashRows(1, [
        ["2024-05-01", 0, 0, 0, 0, 0],
        ["2024-05-02", 0, 1_000, 0, 0, 1_000],
      ]),
    );
  });

  it("cash-only accounts (depository, credit card) use valuations where cash balance equals total balance", () => {
    for (const account of [depository, creditCard]) {
      expect(opening(account, valuation("2024-05-01", 17_000), [valuation("2024-05-02", 18_000)], "2024-05-02")).toEqual(
        cashRows(flowsFactorOf(account.classification), [
          ["2024-05-01", 17_000, 0, 0, 0, 17_000],
          ["2024-05-02", 17_000, 0, 0, 1_000, 18_000],
        ]),
      );
    }
  });

  it("non-cash accounts (property, loan) use valuations where cash balance is always zero", () => {
    for (const account of [house, mortgage]) {
      expect(opening(account, valuation("2024-05-01", 17_000), [valuation("2024-05-02", 18_000)], "2024-05-02")).toEqual(
        nonCashRows(flowsFactorOf(account.classification), [
          ["2024-05-01", 17_000, 0, 0, 0, 17_000],
          ["2024-05-02", 17_000, 0, 0, 1_000, 18_000],
        ]),
      );
    }
  });

  it("transactions on depository accounts affect cash balance", () => {
    expect(opening(depository, valuation("2024-05-01", 20_000), [txn("2024-05-02", -500), txn("2024-05-04", 100)], "2024-05-04")).toEqual(
      cashRows(1, [
        ["2024-05-01", 20_000, 0, 0, 0, 20_000],
        ["2024-05-02", 20_000, 500, 0, 0, 20_500],
        ["2024-05-03", 20_500, 0, 0, 0, 20_500],
        ["2024-05-04", 20_500, 0, 100, 0, 20_400],
      ]),
    );
  });

  it("transactions on credit card accounts affect cash balance inversely", () => {
    expect(opening(creditCard, valuation("2024-05-01", 1_000), [txn("2024-05-02", -500), txn("2024-05-04", 100)], "2024-05-04")).toEqual(
      cashRows(-1, [
        ["2024-05-01", 1_000, 0, 0, 0, 1_000],
        ["2024-05-02", 1_000, 500, 0, 0, 500],
        ["2024-05-03", 500, 0, 0, 0, 500],
        ["2024-05-04", 500, 0, 100, 0, 600],
      ]),
    );
  });

  it("depository account with transactions and balance reconciliations", () => {
    expect(
      opening(depository, valuation("2024-05-01", 20_000), [txn("2024-05-02", -5_000), valuation("2024-05-03", 17_000), txn("2024-05-04", -500)], "2024-05-04"),
    ).toEqual(
      cashRows(1, [
        ["2024-05-01", 20_000, 0, 0, 0, 20_000],
        ["2024-05-02", 20_000, 5_000, 0, 0, 25_000],
        ["2024-05-03", 25_000, 0, 0, -8_000, 17_000],
        ["2024-05-04", 17_000, 500, 0, 0, 17_500],
      ]),
    );
  });

  it("loan payment transactions affect non cash balance", () => {
    expect(opening(mortgage, valuation("2024-05-01", 20_000), [txn("2024-05-02", -2_000)], "2024-05-02")).toEqual(
      nonCashRows(-1, [
        ["2024-05-01", 20_000, 0, 0, 0, 20_000],
        ["2024-05-02", 20_000, 2_000, 0, 0, 18_000],
      ]),
    );
  });
});

describe("calculateBalances, days and input checks", () => {
  it("walks across month ends, leap days and year ends", () => {
    const dates = (from: string, to: string) => calculateBalances({ account: depository, from, to, entries: [] }).map((row) => row.date);
    expect(dates("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(dates("2023-02-28", "2023-03-01")).toEqual(["2023-02-28", "2023-03-01"]);
    expect(dates("1999-12-31", "2000-01-01")).toEqual(["1999-12-31", "2000-01-01"]);
    expect(dates("2024-04-30", "2024-04-30")).toEqual(["2024-04-30"]);
  });

  it("ignores entries and market flows dated outside the range", () => {
    const rows = calculateBalances({
      account: brokerage,
      from: "2024-01-02",
      to: "2024-01-03",
      entries: [txn("2024-01-01", -500), valuation("2024-01-04", 9_999), txn("2024-01-03", -100)],
      marketFlowsByDate: new Map([
        ["2024-01-01", 7],
        ["2024-01-04", 7],
      ]),
    });
    expect(endTotals(rows)).toEqual([0, 100]);
  });

  it("converts ISO dates to day numbers and back", () => {
    expect(isoToDayNumber("1970-01-01")).toBe(0);
    expect(isoToDayNumber("1969-12-31")).toBe(-1);
    expect(isoToDayNumber("2000-03-01")).toBe(11_017);
    expect(isoToDayNumber("2024-02-29")).toBe(19_782);
    expect(dayNumberToIso(19_782)).toBe("2024-02-29");
    expect(dayNumberToIso(-1)).toBe("1969-12-31");
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["from after to", { from: "2024-01-02", to: "2024-01-01" }, "is after to"],
    ["an invalid from date", { from: "2024-02-30" }, "from must be an ISO date"],
    ["a date that is not YYYY-MM-DD", { to: "2024-1-5" }, "to must be an ISO date"],
    ["a fractional amount", { entries: [txn("2024-01-01", 10.5)] }, "entries[0].amountCents must be an integer"],
    ["a NaN amount", { entries: [txn("2024-01-01", Number.NaN)] }, "entries[0].amountCents must be an integer"],
    ["an amount beyond the safe integer range", { entries: [txn("2024-01-01", 2 ** 53)] }, "entries[0].amountCents must be an integer"],
    ["an invalid entry date", { entries: [txn("2024-13-01", 1)] }, "entries[0].date must be an ISO date"],
    ["an unknown entry kind", { entries: [{ date: "2024-01-01", kind: "transfer", amountCents: 1 }] }, "entries[0].kind is unknown"],
    ["a fractional start", { start: { endCashCents: 0.5, endNonCashCents: 0 } }, "start.endCashCents must be an integer"],
    ["a fractional market flow", { marketFlowsByDate: new Map([["2024-01-01", 1.5]]) }, "marketFlowsByDate[2024-01-01] must be an integer"],
    ["an unknown balance type", { account: { classification: "asset", balanceType: "bond", valuationsOnly: false } }, "Unknown balance type"],
    ["an unknown classification", { account: { classification: "equity", balanceType: "cash", valuationsOnly: false } }, "Unknown classification"],
    ["a missing valuationsOnly", { account: { classification: "asset", balanceType: "cash" } }, "valuationsOnly must be a boolean"],
    ["sums beyond the safe integer range", { entries: [txn("2024-01-01", 2 ** 52), txn("2024-01-01", 2 ** 52)] }, "exceeds the safe integer range"],
  ])("throws a plain Error for %s", (_name, override, message) => {
    const input = { account: depository, from: "2024-01-01", to: "2024-01-03", entries: [], ...override } as unknown as Parameters<typeof calculateBalances>[0];
    const error = captureError(() => calculateBalances(input));
    expect(error.constructor).toBe(Error);
    expect(error.message).toContain(message);
  });

  it("never produces negative zero (JSON and toEqual tell it apart)", () => {
    const rows = calculateBalances({ account: creditCard, from: "2024-01-01", to: "2024-01-01", entries: [txn("2024-01-01", 0), valuation("2024-01-01", -0)] });
    for (const value of Object.values(rows[0]!)) if (typeof value === "number") expect(Object.is(value, -0)).toBe(false);
  });
});

// Sure's test/models/balance/forward_calculator_test.rb, the investment cases: the holdings value
// is the day's non-cash balance, buys move cash into it, and the market explains the rest.
describe("investment accounts with holdings", () => {
  const holdings = (values: Record<string, number>) => new Map(Object.entries(values));

  it("treats holdings as non-cash, additive to the balance ('investment account calculates balance from transactions and trades...')", () => {
    const rows = calculateBalances({
      account: brokerage,
      entries: [valuation("2025-01-01", 500_000), trade("2025-01-03", 100_000)],
      from: "2025-01-01",
      to: "2025-01-04",
      start: openingStart(brokerage, 500_000),
      holdingsValueByDate: holdings({ "2025-01-03": 100_000, "2025-01-04": 110_000 }),
    });
    const [, , buyDay, today] = rows;
    expect(buyDay).toMatchObject({
      startCashCents: 500_000,
      startNonCashCents: 0,
      cashOutflowsCents: 100_000,
      nonCashInflowsCents: 100_000,
      netMarketFlowsCents: 0,
      endCashCents: 400_000,
      endNonCashCents: 100_000,
    });
    expect(today).toMatchObject({
      startCashCents: 400_000,
      startNonCashCents: 100_000,
      netMarketFlowsCents: 10_000,
      endCashCents: 400_000,
      endNonCashCents: 110_000,
      cashAdjustmentsCents: 0,
      nonCashAdjustmentsCents: 0,
    });
  });

  it("interest is cash only ('investment account interest trade is classified as cash-only, not non-cash outflow')", () => {
    // The materializer hands a trade without quantity to the calculator as a transaction.
    const rows = calculateBalances({
      account: brokerage,
      entries: [valuation("2025-01-01", 500_000), trade("2025-01-03", 100_000), txn("2025-01-04", -500)],
      from: "2025-01-01",
      to: "2025-01-04",
      start: openingStart(brokerage, 500_000),
      holdingsValueByDate: holdings({ "2025-01-03": 100_000, "2025-01-04": 110_000 }),
    });
    expect(rows[3]).toMatchObject({
      cashInflowsCents: 500,
      nonCashOutflowsCents: 0,
      netMarketFlowsCents: 10_000,
      endCashCents: 400_500,
      endNonCashCents: 110_000,
    });
  });

  it("a valuation sets the total, its cash part being the total minus the holdings ('investment account can have valuations that override balance')", () => {
    const rows = calculateBalances({
      account: brokerage,
      entries: [valuation("2025-01-02", 500_000), valuation("2025-01-03", 1_000_000)],
      from: "2025-01-02",
      to: "2025-01-04",
      start: { endCashCents: 400_000, endNonCashCents: 100_000 },
      holdingsValueByDate: holdings({ "2025-01-02": 100_000, "2025-01-03": 110_000, "2025-01-04": 120_000 }),
    });
    expect(rows[0]).toMatchObject({ endCashCents: 400_000, endNonCashCents: 100_000, netMarketFlowsCents: 0, cashAdjustmentsCents: 0 });
    expect(rows[1]).toMatchObject({
      endCashCents: 890_000,
      endNonCashCents: 110_000,
      netMarketFlowsCents: 10_000,
      cashAdjustmentsCents: 490_000,
      nonCashAdjustmentsCents: 0,
    });
    expect(rows[2]).toMatchObject({
      startCashCents: 890_000,
      startNonCashCents: 110_000,
      endCashCents: 890_000,
      endNonCashCents: 120_000,
      netMarketFlowsCents: 10_000,
    });
  });

  it("a buy's fee shows as a market loss of the day", () => {
    const rows = calculateBalances({
      account: brokerage,
      entries: [trade("2025-01-01", 100_500)],
      from: "2025-01-01",
      to: "2025-01-01",
      start: { endCashCents: 200_000, endNonCashCents: 0 },
      holdingsValueByDate: holdings({ "2025-01-01": 100_000 }),
    });
    expect(rows[0]).toMatchObject({ endCashCents: 99_500, nonCashInflowsCents: 100_500, netMarketFlowsCents: -500, endNonCashCents: 100_000 });
  });
});
