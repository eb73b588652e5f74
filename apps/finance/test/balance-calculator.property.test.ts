// Properties of the balance calculator over random histories of every account type.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  calculateBalances,
  calculatorAccountOf,
  flowsFactorOf,
  openingStart,
  type AccountType,
  type BalanceStart,
  type CalculateBalancesInput,
  type CalculatorEntry,
  type DailyBalance,
} from "../src/balances/balance-calculator";
import { dayNumberToIso, isoToDayNumber } from "../src/balances/calendar-days";

const NUM_RUNS = 300;
const ACCOUNT_TYPES: AccountType[] = ["depository", "investment", "crypto", "property", "vehicle", "credit_card", "loan", "other_asset", "other_liability"];
const FIRST_DAY = isoToDayNumber("1999-01-01");
const LAST_DAY = isoToDayNumber("2030-12-31");

const amount = fc.integer({ min: -10_000_000, max: 10_000_000 });

/** A history: a range of up to 120 days, entries a few days either side of it, optional market flows and start. */
const history = fc
  .record({
    accountType: fc.constantFrom(...ACCOUNT_TYPES),
    fromDay: fc.integer({ min: FIRST_DAY, max: LAST_DAY }),
    span: fc.integer({ min: 1, max: 120 }),
    entries: fc.array(
      fc.record({ offset: fc.integer({ min: -5, max: 125 }), kind: fc.constantFrom<CalculatorEntry["kind"][]>("transaction", "trade", "valuation"), amount }),
      {
        maxLength: 60,
      },
    ),
    market: fc.array(fc.tuple(fc.integer({ min: -5, max: 125 }), amount), { maxLength: 10 }),
    start: fc.option(fc.record({ endCashCents: amount, endNonCashCents: amount }), { nil: undefined }),
  })
  .map(({ accountType, fromDay, span, entries, market, start }): CalculateBalancesInput => ({
    account: calculatorAccountOf(accountType),
    from: dayNumberToIso(fromDay),
    to: dayNumberToIso(fromDay + span - 1),
    entries: entries.map(({ offset, kind, amount }): CalculatorEntry => ({ date: dayNumberToIso(fromDay + offset), kind, amountCents: amount })),
    marketFlowsByDate: new Map(market.map(([offset, flow]) => [dayNumberToIso(fromDay + offset), flow])),
    start,
  }));

const withinRange = (date: string, input: CalculateBalancesInput) => date >= input.from && date <= input.to;
const total = (row: DailyBalance) => row.endCashCents + row.endNonCashCents;

/**
 * How an entry after the last valuation moves the total (cash + non-cash). By the rules, a
 * transaction moves one part by (inflow - outflow) * factor = -amount * factor. A trade on a cash
 * or investment account moves cash by -amount * factor and non-cash by +amount * factor: the total
 * does not change. On a loan a trade is a transaction; on the other non-cash accounts (property,
 * vehicle, other asset and liability) only valuations move the balance, as in Sure.
 */
function totalChange(entry: CalculatorEntry, input: CalculateBalancesInput): number {
  if (input.account.valuationsOnly) return 0;
  if (entry.kind === "trade" && input.account.balanceType !== "non_cash") return 0;
  return -entry.amountCents * flowsFactorOf(input.account.classification);
}

/** Last valuation in range (latest day; on that day, last in array order), or undefined. */
function latestValuation(input: CalculateBalancesInput): CalculatorEntry | undefined {
  let latest: CalculatorEntry | undefined;
  for (const entry of input.entries) {
    if (entry.kind === "valuation" && withinRange(entry.date, input) && (latest === undefined || entry.date >= latest.date)) latest = entry;
  }
  return latest;
}

describe("calculateBalances properties", () => {
  it("the last day's total is the latest valuation (or the start) moved by the entries and market flows after it", () => {
    fc.assert(
      fc.property(history, (input) => {
        const rows = calculateBalances(input);
        const anchor = latestValuation(input);
        const after = (date: string) => withinRange(date, input) && (anchor === undefined || date > anchor.date);
        let expected = anchor ? anchor.amountCents : (input.start?.endCashCents ?? 0) + (input.start?.endNonCashCents ?? 0);
        for (const entry of input.entries) if (entry.kind !== "valuation" && after(entry.date)) expected += totalChange(entry, input);
        for (const [date, flow] of input.marketFlowsByDate ?? []) if (after(date)) expected += flow;
        expect(total(rows.at(-1)!)).toBe(expected + 0);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("each day starts where the previous one ended, and end = start + flows * factor + adjustments (+ market flows) on both parts", () => {
    fc.assert(
      fc.property(history, (input) => {
        const rows = calculateBalances(input);
        expect(rows.length).toBe(isoToDayNumber(input.to) - isoToDayNumber(input.from) + 1);
        rows.forEach((row, index) => {
          const previous = index === 0 ? input.start : { endCashCents: rows[index - 1]!.endCashCents, endNonCashCents: rows[index - 1]!.endNonCashCents };
          expect(row.date).toBe(dayNumberToIso(isoToDayNumber(input.from) + index));
          expect(row.startCashCents).toBe(previous?.endCashCents ?? 0);
          expect(row.startNonCashCents).toBe(previous?.endNonCashCents ?? 0);
          const ff = row.flowsFactor;
          expect(row.endCashCents).toBe(row.startCashCents + (row.cashInflowsCents - row.cashOutflowsCents) * ff + row.cashAdjustmentsCents);
          expect(row.endNonCashCents).toBe(
            row.startNonCashCents + (row.nonCashInflowsCents - row.nonCashOutflowsCents) * ff + row.netMarketFlowsCents + row.nonCashAdjustmentsCents,
          );
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("adjustments appear only on valuation days, where the valuation is split by balance type", () => {
    fc.assert(
      fc.property(history, (input) => {
        const valuations = new Map<string, number>();
        for (const entry of input.entries) if (entry.kind === "valuation") valuations.set(entry.date, entry.amountCents);
        for (const row of calculateBalances(input)) {
          const valued = valuations.get(row.date);
          if (valued === undefined) {
            expect([row.cashAdjustmentsCents, row.nonCashAdjustmentsCents]).toEqual([0, 0]);
            continue;
          }
          expect(total(row)).toBe(valued);
          if (input.account.balanceType === "cash") expect(row.endNonCashCents).toBe(0);
          if (input.account.balanceType === "non_cash") expect(row.endCashCents).toBe(0);
          if (input.account.balanceType === "investment") expect(row.nonCashAdjustmentsCents).toBe(0);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("recomputing from any day D, started from the full run's end of D-1, gives the full run's rows from D on", () => {
    const withDay = history.chain((input) => {
      const span = isoToDayNumber(input.to) - isoToDayNumber(input.from) + 1;
      return fc.tuple(fc.constant(input), fc.integer({ min: 0, max: span - 1 }));
    });
    fc.assert(
      fc.property(withDay, ([input, index]) => {
        const full = calculateBalances(input);
        const before = full[index - 1];
        const start: BalanceStart | undefined = before ? { endCashCents: before.endCashCents, endNonCashCents: before.endNonCashCents } : input.start;
        const window = calculateBalances({ ...input, from: full[index]!.date, start });
        expect(window).toEqual(full.slice(index));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("the order of transactions and trades does not matter", () => {
    fc.assert(
      fc.property(
        history.chain((input) => fc.tuple(fc.constant(input), fc.shuffledSubarray([...input.entries], { minLength: input.entries.length }))),
        ([input, shuffled]) => {
          // Valuations keep their relative order: on one day the last one wins.
          const valuations = input.entries.filter((entry) => entry.kind === "valuation");
          const reordered = [...shuffled.filter((entry) => entry.kind !== "valuation"), ...valuations];
          expect(calculateBalances({ ...input, entries: reordered })).toEqual(calculateBalances(input));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("calculateBalances properties, opening anchor and non-cash accounts (Sure's rules)", () => {
  /** A history opened by an anchor on its first day, started at the anchor as the materializer starts it. */
  const opened = history.chain((input) =>
    amount.map((anchorCents): CalculateBalancesInput => {
      const others = input.entries.filter((entry) => entry.date > input.from);
      return {
        ...input,
        entries: [{ date: input.from, kind: "valuation", amountCents: anchorCents }, ...others],
        start: openingStart(input.account, anchorCents),
        marketFlowsByDate: new Map(),
      };
    }),
  );

  it("the opening balance is the balance before every entry: the first row starts and ends at it with no adjustment", () => {
    fc.assert(
      fc.property(opened, (input) => {
        const [first] = calculateBalances(input);
        const anchor = input.entries[0]!.amountCents;
        expect(first!.startCashCents + first!.startNonCashCents).toBe(anchor);
        expect(total(first!)).toBe(anchor);
        expect([first!.cashAdjustmentsCents, first!.nonCashAdjustmentsCents]).toEqual([0, 0]);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("without later valuations, every day's total is the opening balance moved by the entries up to that day", () => {
    fc.assert(
      fc.property(opened, (input) => {
        const flows = input.entries.filter((entry, index) => index === 0 || entry.kind !== "valuation");
        const rows = calculateBalances({ ...input, entries: flows });
        let expected = flows[0]!.amountCents;
        for (const row of rows) {
          for (const entry of flows.slice(1)) if (entry.date === row.date) expected += totalChange(entry, input);
          expect(total(row)).toBe(expected + 0);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("property, vehicle, other asset and other liability: every day's total is the latest valuation, whatever the transactions", () => {
    const valuationsOnly = opened.filter((input) => input.account.valuationsOnly);
    fc.assert(
      fc.property(valuationsOnly, (input) => {
        const valuations = new Map(input.entries.filter((entry) => entry.kind === "valuation").map((entry) => [entry.date, entry.amountCents]));
        let latest = input.entries[0]!.amountCents;
        for (const row of calculateBalances(input)) {
          latest = valuations.get(row.date) ?? latest;
          expect(total(row)).toBe(latest);
          expect([row.cashInflowsCents, row.cashOutflowsCents, row.nonCashInflowsCents, row.nonCashOutflowsCents]).toEqual([0, 0, 0, 0]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe("calendar days", () => {
  it("agree with Date for every year 0000..9999", () => {
    const dayNumber = fc.integer({ min: isoToDayNumber("0000-01-01"), max: isoToDayNumber("9999-12-31") });
    fc.assert(
      fc.property(dayNumber, (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        expect(dayNumberToIso(day)).toBe(iso);
        expect(isoToDayNumber(iso)).toBe(day);
      }),
      { numRuns: 2_000 },
    );
  });
});
