import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecurringTransaction } from "@hearth/contracts";
import { createLogger, databaseUrlOf } from "@hearth/service-kit";
import { createJobRunner, type JobRunner } from "@hearth/service-kit/jobs";
import { startServiceUnderTest } from "@hearth/test-kit";
import { createFinanceService } from "../src/app";
import { Prisma, type TransactionKind } from "../src/generated/prisma/client";
import { addDays, dateOf, isoDateOf, todayIso } from "../src/ledger/dates";
import { dayPatternCtes } from "../src/recurring/day-pattern-sql";
import { daysInMonth, monthsBefore, nextExpectedDate } from "../src/recurring/next-expected-date";
import { runRecurringScan } from "../src/recurring/recurring-scan";
import { nextExpectedDateSql } from "../src/recurring/recurring-sql";
import { recurringScanJob, type RecurringScanOptions } from "../src/recurring/recurring-scan-job";
import { RECURRING_SCAN_QUEUE, requestRecurringScan } from "../src/recurring/recurring-scan-queries";
import { endJobConnection, eventually, financeAs, financeUnderTest, newActor, settled, type RunningFinance } from "./support";

// Detection cases mirror Sure's test/models/recurring_transaction/identifier_test.rb and
// test/models/recurring_transaction_test.rb (each case names the test it follows). Sure's tests
// run at the wall clock or under travel_to; here every scan gets its own `today`.

/** Short debounce and retry, so the background cases run in moments. */
const FAST: RecurringScanOptions = { debounceMs: 300, retryAfterMs: 200 };

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startServiceUnderTest({ ...financeUnderTest, create: (deps) => createFinanceService({ ...deps, recurringScan: FAST }) });
});
afterAll(async () => finance?.stop());

/** The day every identifier case runs on (Sure's cases run on the wall clock). */
const TODAY = "2026-06-20";

/** Rails' `n.months.ago.beginning_of_month + (day - 1).days` from `today`. */
function dayOfMonthAgo(monthsAgo: number, day: number, today = TODAY): string {
  const start = `${monthsBefore(today, monthsAgo).slice(0, 7)}-01`;
  return addDays(start, day - 1);
}

/** Rails' `n.months.ago.end_of_month` from `today`. */
function endOfMonthAgo(monthsAgo: number, today = TODAY): string {
  const [year, month] = monthsBefore(today, monthsAgo).split("-").map(Number) as [number, number];
  return `${monthsBefore(today, monthsAgo).slice(0, 7)}-${String(daysInMonth(year, month)).padStart(2, "0")}`;
}

/**
 * A family with two accounts and two merchants made straight in the database: no sync is
 * queued, so the background worker never scans these families on the wall clock meanwhile.
 */
async function family() {
  const actor = newActor();
  const { familyId } = actor;
  const account = (name: string) =>
    finance.db.account.create({ data: { familyId, name, accountType: "depository", classification: "asset", currency: "USD" } });
  const checking = await account("Checking");
  const card = await account("Card");
  const netflix = await finance.db.merchant.create({ data: { familyId, name: "Netflix" } });
  const amazon = await finance.db.merchant.create({ data: { familyId, name: "Amazon" } });
  const call = financeAs(finance, actor);

  async function entry(date: string, amount: string, name: string, options: { merchantId?: string | null; accountId?: string; kind?: TransactionKind } = {}) {
    const cents = BigInt(Math.round(Number(amount) * 100));
    return finance.db.entry.create({
      data: {
        familyId,
        accountId: options.accountId ?? checking.id,
        kind: "transaction",
        date: dateOf(date),
        name,
        amountCents: cents,
        currency: "USD",
        merchantId: options.merchantId ?? null,
        transactionKind: options.kind ?? "standard",
      },
    });
  }

  return {
    familyId,
    checking,
    card,
    netflix,
    amazon,
    entry,
    scan: (today = TODAY) => runRecurringScan(finance.db, familyId, today),
    /** Through the API, as a person (or an earlier detection) made it. */
    create: (fields: Record<string, unknown>) =>
      call("recurringTransactions.create", { recurring_transaction: { currency: "USD", account_id: checking.id, ...fields } }) as Promise<RecurringTransaction>,
    list: async () => (await call("recurringTransactions.list", { per_page: 100 })).recurring_transactions as RecurringTransaction[],
    get: (id: string) => call("recurringTransactions.get", { id }) as Promise<RecurringTransaction>,
  };
}

describe("recurring detection: patterns (identifier_test.rb)", () => {
  it("identifies recurring pattern with transactions on similar days mid-month", async () => {
    const f = await family();
    for (const [i, day] of [5, 6, 7].entries()) await f.entry(dayOfMonthAgo(i, day), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    expect(await f.scan()).toMatchObject({ patterns: 1, written: 1 });
    const [found, ...rest] = await f.list();
    expect(rest).toEqual([]);
    expect(found).toMatchObject({
      merchant: { id: f.netflix.id, name: "Netflix" },
      name: null,
      amount: "$15.99",
      amount_cents: 1599,
      expected_day_of_month: 6,
      last_occurrence_date: "2026-06-05",
      next_expected_date: "2026-07-06",
      occurrence_count: 3,
      status: "active",
      manual: false,
    });
  });

  it("identifies recurring pattern with transactions wrapping month boundary", async () => {
    const f = await family();
    for (const date of [addDays(endOfMonthAgo(2), -1), endOfMonthAgo(1), dayOfMonthAgo(0, 1)]) {
      await f.entry(date, "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    }
    expect((await f.scan()).patterns).toBe(1);
    const [found] = await f.list();
    expect([30, 31, 1]).toContain(found!.expected_day_of_month);
    // Days 29, 31 and 1: Sure's rotation puts the median on the 31st.
    expect(found).toMatchObject({ expected_day_of_month: 31, last_occurrence_date: "2026-06-01", next_expected_date: "2026-07-31" });
  });

  it("identifies recurring pattern with transactions spanning end and start of month", async () => {
    const f = await family();
    const dates = [
      addDays(endOfMonthAgo(3), -3),
      addDays(endOfMonthAgo(2), -2),
      addDays(endOfMonthAgo(2), -1),
      endOfMonthAgo(1),
      dayOfMonthAgo(0, 1),
      dayOfMonthAgo(0, 2),
    ];
    for (const date of dates) await f.entry(date, "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    expect((await f.scan()).patterns).toBe(1);
    const [found] = await f.list();
    expect([28, 29, 30, 31, 1, 2]).toContain(found!.expected_day_of_month);
    expect(found!.occurrence_count).toBe(6);
  });

  it("does not identify pattern when days are not clustered", async () => {
    const f = await family();
    for (const [i, day] of [1, 15, 30].entries()) await f.entry(dayOfMonthAgo(i, day), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    expect(await f.scan()).toMatchObject({ patterns: 0, written: 0 });
    expect(await f.list()).toEqual([]);
  });

  it("does not identify pattern with fewer than 3 occurrences", async () => {
    const f = await family();
    for (const [i, day] of [5, 6].entries()) await f.entry(dayOfMonthAgo(i, day), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    // A third occurrence older than 3 months does not count.
    await f.entry(dayOfMonthAgo(4, 5), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    expect((await f.scan()).patterns).toBe(0);
    expect(await f.list()).toEqual([]);
  });

  it("wants the last occurrence within 45 days (Sure's `next if last_occurrence.date < 45.days.ago`)", async () => {
    const f = await family();
    // 2026-03-28, 2026-04-28 and 2026-05-05: steady enough, but the last is 46 days before 2026-06-20.
    for (const date of ["2026-03-28", "2026-04-28", "2026-05-05"]) await f.entry(date, "30", "Water bill");
    expect((await f.scan()).patterns).toBe(0);
    await f.entry(addDays(TODAY, -45), "30", "Water bill");
    expect((await f.scan()).patterns).toBe(1);
    expect((await f.list())[0]).toMatchObject({ name: "Water bill", occurrence_count: 4, last_occurrence_date: "2026-05-06" });
  });

  it("updates existing recurring transaction when pattern is found again", async () => {
    const f = await family();
    const existing = await f.create({
      merchant_id: f.amazon.id,
      amount: 29.99,
      expected_day_of_month: 15,
      last_occurrence_date: monthsBefore(TODAY, 2),
      next_expected_date: monthsBefore(TODAY, 1),
      occurrence_count: 2,
      manual: false,
    });
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 15), "29.99", "Amazon Purchase", { merchantId: f.amazon.id });
    await f.scan();
    const rows = await f.list();
    expect(rows.map((row) => row.id)).toEqual([existing.id]);
    expect(rows[0]).toMatchObject({
      status: "active",
      occurrence_count: 3,
      last_occurrence_date: "2026-06-15",
      next_expected_date: "2026-07-15",
      manual: false,
    });
    // Nothing new: a second scan writes nothing (the row's updated_at stays).
    expect((await f.scan()).written).toBe(0);
    expect((await f.get(existing.id)).updated_at).toBe(rows[0]!.updated_at);
  });

  it("keeps automatic recurring lookup amount-scoped", async () => {
    const f = await family();
    const name = "Tiered Performance Subscription";
    const rows = [];
    for (const amount of [40, 55]) {
      for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 5), String(amount), name);
      rows.push(
        await f.create({
          name,
          amount,
          expected_day_of_month: 5,
          last_occurrence_date: monthsBefore(TODAY, 4),
          next_expected_date: "2026-07-20",
          occurrence_count: 1,
          manual: false,
        }),
      );
    }
    await f.scan();
    const after = await f.list();
    expect(after).toHaveLength(2);
    for (const row of rows) expect(after.find((found) => found.id === row.id)).toMatchObject({ occurrence_count: 3 });
  });

  it("updates manual recurring variance without creating automatic twins", async () => {
    const f = await family();
    const manual = [];
    for (const index of [0, 1, 2, 3]) {
      const name = `Manual Performance Subscription ${index}`;
      for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 6), String(50 + index), name);
      manual.push(
        await f.create({
          name,
          amount: 50 + index,
          expected_day_of_month: 6,
          last_occurrence_date: monthsBefore(TODAY, 4),
          next_expected_date: "2026-07-20",
          occurrence_count: 1,
          manual: true,
        }),
      );
    }
    expect((await f.scan()).patterns).toBe(4);
    const after = await f.list();
    expect(after).toHaveLength(4);
    for (const [index, row] of manual.entries()) {
      expect(after.find((found) => found.id === row.id)).toMatchObject({
        manual: true,
        occurrence_count: 3,
        expected_amount_min_cents: (50 + index) * 100,
        expected_amount_max_cents: (50 + index) * 100,
        expected_amount_avg_cents: (50 + index) * 100,
        last_occurrence_date: "2026-06-06",
        next_expected_date: "2026-07-06",
      });
    }
  });

  it("updates manual recurring variance across 1 to 31 month boundary", async () => {
    const f = await family();
    const today = "2026-06-07";
    const name = "Boundary Performance Subscription";
    const row = await f.create({
      name,
      amount: 72,
      expected_day_of_month: 1,
      last_occurrence_date: monthsBefore(today, 3),
      next_expected_date: "2026-07-07",
      occurrence_count: 0,
      manual: true,
    });
    await f.entry("2026-05-31", "72", name);
    await f.scan(today);
    expect(await f.list()).toHaveLength(1);
    expect(await f.get(row.id)).toMatchObject({
      occurrence_count: 1,
      expected_amount_min_cents: 7200,
      last_occurrence_date: "2026-05-31",
      next_expected_date: "2026-06-01",
    });
  });

  it("updates manual recurring variance for expected end of month in February", async () => {
    for (const [today, day, amount] of [
      ["2026-03-07", "2026-02-28", "82"],
      ["2024-03-07", "2024-02-29", "92"],
    ] as const) {
      const f = await family();
      const name = "Leap Boundary Subscription";
      const row = await f.create({
        name,
        amount,
        expected_day_of_month: 31,
        last_occurrence_date: monthsBefore(today, 3),
        next_expected_date: addDays(today, 30),
        occurrence_count: 0,
        manual: true,
      });
      await f.entry(day, amount, name);
      await f.scan(today);
      expect(await f.get(row.id)).toMatchObject({ occurrence_count: 1, last_occurrence_date: day, next_expected_date: `${day.slice(0, 4)}-03-31` });
    }
  });
});

describe("recurring detection: patterns (recurring_transaction_test.rb)", () => {
  it("identify_patterns_for creates recurring transactions for patterns with 3+ occurrences (automatic rows carry no expected range, as in Sure)", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 6), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    await f.scan();
    expect(await f.list()).toEqual([
      expect.objectContaining({
        merchant: { id: f.netflix.id, name: "Netflix" },
        account: { id: f.checking.id, name: "Checking", account_type: "depository" },
        amount_cents: 1599,
        currency: "USD",
        status: "active",
        occurrence_count: 3,
        manual: false,
        expected_amount_min: null,
        expected_amount_avg_cents: null,
      }),
    ]);
  });

  it("identify_patterns_for preserves sign for income transactions", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 16), "-1000", "Monthly Salary", { merchantId: f.netflix.id });
    await f.scan();
    expect(await f.list()).toEqual([expect.objectContaining({ amount: "-$1,000.00", amount_cents: -100000, expected_day_of_month: 16 })]);
  });

  it("identify_patterns_for creates name-based recurring transactions for transactions without merchants", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 11), "25", "Local Coffee Shop");
    // The same name with other letter case is another name, as Sure groups by the name as written.
    for (const monthsAgo of [0, 1]) await f.entry(dayOfMonthAgo(monthsAgo, 11), "25", "LOCAL COFFEE SHOP");
    await f.scan();
    expect(await f.list()).toEqual([
      expect.objectContaining({
        merchant: null,
        name: "Local Coffee Shop",
        account: expect.objectContaining({ id: f.checking.id }),
        amount_cents: 2500,
        occurrence_count: 3,
      }),
    ]);
  });

  it("identify_patterns_for creates separate patterns for same merchant but different amounts, and both merchant and name patterns coexist", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) {
      await f.entry(dayOfMonthAgo(monthsAgo, 6), "15.99", "Netflix Standard", { merchantId: f.netflix.id });
      await f.entry(dayOfMonthAgo(monthsAgo, 11), "19.99", "Netflix Premium", { merchantId: f.netflix.id });
      await f.entry(dayOfMonthAgo(monthsAgo, 2), "1200", "Monthly Rent");
    }
    expect((await f.scan()).patterns).toBe(3);
    const rows = await f.list();
    expect(rows.map((row) => [row.merchant?.id ?? null, row.name, row.amount_cents]).sort()).toEqual(
      [
        [f.netflix.id, null, 1599],
        [f.netflix.id, null, 1999],
        [null, "Monthly Rent", 120000],
      ].sort(),
    );
  });

  it("identifier creates per-account patterns for same merchant on different accounts", async () => {
    const f = await family();
    for (const accountId of [f.checking.id, f.card.id]) {
      for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 6), "15.99", "Netflix Subscription", { merchantId: f.netflix.id, accountId });
    }
    expect((await f.scan()).patterns).toBe(2);
    expect((await f.list()).map((row) => row.account?.id).sort()).toEqual([f.checking.id, f.card.id].sort());
  });

  it("Identifier skips transfer-kind transactions, and transfer halves beside an expense pattern", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) {
      for (const kind of ["funds_movement", "cc_payment", "loan_payment", "investment_contribution"] as const) {
        await f.entry(dayOfMonthAgo(monthsAgo, 6), "50", `Half of transfer (${kind})`, { merchantId: f.amazon.id, kind, accountId: f.card.id });
      }
      await f.entry(dayOfMonthAgo(monthsAgo, 6), "50", "Coffee", { merchantId: f.netflix.id });
    }
    expect((await f.scan()).patterns).toBe(1);
    expect(await f.list()).toEqual([expect.objectContaining({ merchant: expect.objectContaining({ id: f.netflix.id }), occurrence_count: 3 })]);
  });

  it("skips a transfer's halves even when their kind says standard (an imported transfer)", async () => {
    const f = await family();
    for (const monthsAgo of [0, 1, 2]) {
      const date = dayOfMonthAgo(monthsAgo, 9);
      const outflow = await f.entry(date, "500", "Savings");
      const inflow = await f.entry(date, "-500", "Savings", { accountId: f.card.id });
      await finance.db.transfer.create({ data: { familyId: f.familyId, inflowEntryId: inflow.id, outflowEntryId: outflow.id } });
    }
    expect((await f.scan()).patterns).toBe(0);
  });

  it("one_time and standard kinds count, as Sure filters only the transfer kinds; valuations and other families do not", async () => {
    const f = await family();
    const other = await family();
    for (const monthsAgo of [0, 1, 2]) {
      await f.entry(dayOfMonthAgo(monthsAgo, 8), "12", "Gym", { kind: "one_time" });
      await other.entry(dayOfMonthAgo(monthsAgo, 8), "12", "Gym");
      await finance.db.entry.create({
        data: {
          familyId: f.familyId,
          accountId: f.checking.id,
          kind: "valuation",
          date: dateOf(dayOfMonthAgo(monthsAgo, 3)),
          name: "Valuation",
          amountCents: 100n,
          currency: "USD",
        },
      });
    }
    expect((await f.scan()).patterns).toBe(1);
    expect((await f.list()).map((row) => row.name)).toEqual(["Gym"]);
  });

  it("identify_patterns_for updates variance for manual recurring transactions", async () => {
    const f = await family();
    const manual = await f.create({
      merchant_id: f.netflix.id,
      amount: 50,
      expected_day_of_month: 15,
      last_occurrence_date: monthsBefore(TODAY, 3),
      next_expected_date: "2026-07-20",
      status: "active",
      manual: true,
      occurrence_count: 1,
      expected_amount_min: 50,
      expected_amount_max: 50,
      expected_amount_avg: 50,
    });
    for (const [i, amount] of ["45", "55", "60"].entries()) await f.entry(dayOfMonthAgo(3 - i, 15), amount, "Test Transaction", { merchantId: f.netflix.id });
    await f.scan();
    expect(await f.list()).toHaveLength(1);
    expect(await f.get(manual.id)).toMatchObject({
      manual: true,
      amount_cents: 5000,
      expected_day_of_month: 15,
      expected_amount_min_cents: 4500,
      expected_amount_max_cents: 6000,
      // (45 + 55 + 60) / 3 = 53.333...: Sure keeps 53.3333, shown as $53.33.
      expected_amount_avg: "$53.33",
      expected_amount_avg_cents: 5333,
      occurrence_count: 3,
      last_occurrence_date: dayOfMonthAgo(1, 15),
    });
  });

  it("identify_patterns_for does not re-blend a distinct charge type into an existing manual recurring transaction", async () => {
    const f = await family();
    const manual = await f.create({
      merchant_id: f.netflix.id,
      amount: 3,
      expected_day_of_month: 15,
      last_occurrence_date: monthsBefore(TODAY, 3),
      next_expected_date: "2026-07-20",
      manual: true,
      occurrence_count: 1,
      expected_amount_min: 3,
      expected_amount_max: 3,
      expected_amount_avg: 3,
    });
    await f.entry(dayOfMonthAgo(1, 15), "3.00", "Test Transaction", { merchantId: f.netflix.id });
    await f.entry(dayOfMonthAgo(1, 15), "19.68", "Test Transaction", { merchantId: f.netflix.id });
    await f.scan();
    expect(await f.list()).toHaveLength(1);
    expect(await f.get(manual.id)).toMatchObject({ expected_amount_min_cents: 300, expected_amount_max_cents: 300, expected_amount_avg_cents: 300 });
  });

  it("never overwrites a manual row with the pattern of the same identity: its amount, day, status and dates stay the person's", async () => {
    const f = await family();
    const manual = await f.create({
      merchant_id: f.netflix.id,
      amount: 15.99,
      expected_day_of_month: 20,
      last_occurrence_date: "2026-01-20",
      next_expected_date: "2026-02-20",
      status: "active",
      occurrence_count: 7,
      manual: true,
    });
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 6), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    expect(await f.scan()).toMatchObject({ patterns: 1, written: 0 });
    const rows = await f.list();
    expect(rows).toHaveLength(1);
    // Day 6 is more than 2 days from the 20th: no occurrence of the manual row, so nothing moves;
    // its last occurrence is under 6 months old, so the cleaner leaves it active too.
    expect(rows[0]).toEqual(manual);
  });

  it("an inactive automatic row found again keeps its status (Sure keeps a persisted row's status) but gets the new dates", async () => {
    const f = await family();
    const row = await f.create({
      merchant_id: f.netflix.id,
      amount: 15.99,
      expected_day_of_month: 6,
      last_occurrence_date: "2026-01-06",
      next_expected_date: "2026-02-06",
      status: "inactive",
      manual: false,
    });
    for (const monthsAgo of [0, 1, 2]) await f.entry(dayOfMonthAgo(monthsAgo, 6), "15.99", "Netflix Subscription", { merchantId: f.netflix.id });
    await f.scan();
    expect(await f.get(row.id)).toMatchObject({ status: "inactive", last_occurrence_date: "2026-06-06", occurrence_count: 3 });
  });
});

describe("recurring detection: the cleaner (cleaner.rb)", () => {
  it("cleanup_stale_for marks inactive when no recent occurrences; should_be_inactive? has longer threshold for manual recurring", async () => {
    const f = await family();
    const stale = await f.create({
      merchant_id: f.amazon.id,
      amount: 35.99,
      expected_day_of_month: 5,
      last_occurrence_date: monthsBefore(TODAY, 3),
      next_expected_date: monthsBefore(TODAY, 2),
      manual: false,
    });
    const recent = await f.create({
      merchant_id: f.amazon.id,
      amount: 25.99,
      expected_day_of_month: 5,
      last_occurrence_date: monthsBefore(TODAY, 1),
      next_expected_date: TODAY,
      manual: false,
    });
    const manual = await f.create({
      merchant_id: f.netflix.id,
      amount: 50,
      expected_day_of_month: 15,
      last_occurrence_date: monthsBefore(TODAY, 5),
      next_expected_date: "2026-07-05",
      manual: true,
    });
    const oldManual = await f.create({
      merchant_id: f.netflix.id,
      amount: 60,
      expected_day_of_month: 15,
      last_occurrence_date: monthsBefore(TODAY, 7),
      next_expected_date: "2026-07-05",
      manual: true,
    });
    expect((await f.scan()).inactivated).toBe(2);
    expect((await f.get(stale.id)).status).toBe("inactive");
    expect((await f.get(recent.id)).status).toBe("active");
    expect((await f.get(manual.id)).status).toBe("active");
    expect((await f.get(oldManual.id)).status).toBe("inactive");
  });

  it("counts a last occurrence on the threshold day itself as stale, as Sure compares the date with a time of that day", async () => {
    const f = await family();
    const onThreshold = await f.create({
      name: "Paper",
      amount: 9,
      expected_day_of_month: 20,
      last_occurrence_date: monthsBefore(TODAY, 2),
      next_expected_date: "2026-05-20",
      manual: false,
    });
    const dayAfter = await f.create({
      name: "Radio",
      amount: 9,
      expected_day_of_month: 21,
      last_occurrence_date: addDays(monthsBefore(TODAY, 2), 1),
      next_expected_date: "2026-05-21",
      manual: false,
    });
    await f.scan();
    expect((await f.get(onThreshold.id)).status).toBe("inactive");
    expect((await f.get(dayAfter.id)).status).toBe("active");
  });

  it("keeps a stale-looking row active while a matching transaction happened since the threshold (Sure's double check)", async () => {
    const f = await family();
    const kept = await f.create({
      merchant_id: f.amazon.id,
      amount: 35.99,
      expected_day_of_month: 5,
      last_occurrence_date: monthsBefore(TODAY, 3),
      next_expected_date: monthsBefore(TODAY, 2),
      manual: false,
    });
    const gone = await f.create({
      name: "Old gym",
      amount: 20,
      expected_day_of_month: 5,
      last_occurrence_date: monthsBefore(TODAY, 3),
      next_expected_date: monthsBefore(TODAY, 2),
      manual: false,
    });
    // Day 7 is within 2 of the 5th; the same merchant and amount: an occurrence the identifier alone would not count (only one).
    await f.entry(dayOfMonthAgo(1, 7), "35.99", "Amazon", { merchantId: f.amazon.id });
    // Days 2 and 8 are not within 2 of the 5th (Sure's plain range 3..7).
    await f.entry(dayOfMonthAgo(1, 8), "20", "Old gym");
    await f.entry(dayOfMonthAgo(1, 2), "20", "Old gym");
    await f.scan();
    expect((await f.get(kept.id)).status).toBe("active");
    expect((await f.get(gone.id)).status).toBe("inactive");
  });

  it("a manual row with an expected range stays active on an amount inside the range, and only then", async () => {
    const f = await family();
    const manual = (merchantId: string) =>
      f.create({
        merchant_id: merchantId,
        amount: 100,
        expected_day_of_month: 15,
        last_occurrence_date: monthsBefore(TODAY, 7),
        next_expected_date: "2026-07-15",
        manual: true,
        expected_amount_min: 80,
        expected_amount_max: 300,
        expected_amount_avg: 100,
      });
    const inside = await manual(f.netflix.id);
    const outside = await manual(f.amazon.id);
    // 250 and 350 are both more than twice 100, so the variance pass counts neither; the cleaner
    // matches a manual row's range, which holds 250 but not 350.
    await f.entry(dayOfMonthAgo(2, 14), "250", "Test Transaction", { merchantId: f.netflix.id });
    await f.entry(dayOfMonthAgo(2, 14), "350", "Test Transaction", { merchantId: f.amazon.id });
    await f.scan();
    expect(await f.get(inside.id)).toMatchObject({ status: "active", occurrence_count: 0, last_occurrence_date: monthsBefore(TODAY, 7) });
    expect(await f.get(outside.id)).toMatchObject({ status: "inactive", occurrence_count: 0 });
  });

  it("removes rows whose account is being deleted; a deleted merchant takes its rows with it, as Sure's foreign keys cascade", async () => {
    const f = await family();
    const onCard = await f.create({
      account_id: f.card.id,
      name: "Card fee",
      amount: 5,
      expected_day_of_month: 3,
      last_occurrence_date: TODAY,
      next_expected_date: "2026-07-03",
    });
    const ofAmazon = await f.create({
      merchant_id: f.amazon.id,
      amount: 5,
      expected_day_of_month: 3,
      last_occurrence_date: TODAY,
      next_expected_date: "2026-07-03",
    });
    const kept = await f.create({ name: "Kept", amount: 5, expected_day_of_month: 3, last_occurrence_date: TODAY, next_expected_date: "2026-07-03" });
    await finance.db.account.update({ where: { id: f.card.id }, data: { status: "pending_deletion" } });
    await finance.db.merchant.delete({ where: { id: f.amazon.id } });
    // The merchant's row went with it (foreign key, cascade); the account is only marked, so the scan removes its row.
    expect(await finance.db.recurringTransaction.count({ where: { id: ofAmazon.id } })).toBe(0);
    // The service's own recurring worker may scan the family first (it is poked by the writes
    // above): then it removed the row and this scan finds none. Either way the row is gone.
    expect((await f.scan()).removed).toBeLessThanOrEqual(1);
    const ids = (await finance.db.recurringTransaction.findMany({ where: { familyId: f.familyId } })).map((row) => row.id);
    expect(ids).toEqual([kept.id]);
    expect(ids).not.toContain(onCard.id);
    expect(ids).not.toContain(ofAmazon.id);
  });
});

/** Sure's identifier.rb in TypeScript, line by line: the reference the SQL is held to. */
const sure = {
  circularDistance(a: number, b: number): number {
    const linear = Math.abs(a - b);
    return Math.min(linear, 31 - linear);
  },
  expectedDay(days: number[]): number {
    if (days.length === 1) return days[0]!;
    const zeroBased = days.map((day) => day - 1);
    let bestPivot = 0;
    let minSpan = Infinity;
    for (let pivot = 0; pivot <= 30; pivot++) {
      const rotated = zeroBased.map((day) => (((day - pivot) % 31) + 31) % 31);
      const span = Math.max(...rotated) - Math.min(...rotated);
      if (span < minSpan) {
        minSpan = span;
        bestPivot = pivot;
      }
    }
    const rotated = zeroBased.map((day) => (((day - bestPivot) % 31) + 31) % 31).sort((a, b) => a - b);
    const mid = Math.floor(rotated.length / 2);
    const median = rotated.length % 2 === 1 ? rotated[mid]! : Math.round((rotated[mid - 1]! + rotated[mid]!) / 2);
    return ((median + bestPivot) % 31) + 1;
  },
  /** Float arithmetic, as Ruby does it. */
  clustered(days: number[]): boolean {
    const median = sure.expectedDay(days);
    const distances = days.map((day) => sure.circularDistance(day, median));
    const mean = distances.reduce((sum, d) => sum + d, 0) / distances.length;
    const variance = distances.map((d) => (d - mean) ** 2).reduce((sum, d) => sum + d, 0) / distances.length;
    return Math.sqrt(variance) <= 5;
  },
  /** True when the variance is exactly 25, where float rounding may tip Ruby's answer either way (ours is exact). */
  onTheEdge(days: number[]): boolean {
    const median = sure.expectedDay(days);
    const distances = days.map((day) => sure.circularDistance(day, median));
    const n = distances.length;
    const s1 = distances.reduce((sum, d) => sum + d, 0);
    const s2 = distances.reduce((sum, d) => sum + d * d, 0);
    return n * s2 - s1 * s1 === 25 * n * n;
  },
};

/** The SQL's expected day and steadiness for each list of days of the month. */
async function dayPatterns(groups: number[][]): Promise<{ expected_day: number; clustered: boolean }[]> {
  const gids = groups.flatMap((days, gid) => days.map(() => gid));
  const days = groups.flat();
  const rows = await finance.db.$queryRaw<{ gid: number; expected_day: number; clustered: boolean }[]>`
    WITH qh AS (SELECT gid, day - 1 AS d0, count(*)::int AS c FROM unnest(${gids}::int[], ${days}::int[]) AS t(gid, day) GROUP BY gid, day),
    ${dayPatternCtes()}
    SELECT gid, expected_day, clustered FROM day_pattern ORDER BY gid`;
  expect(rows.map((row) => row.gid)).toEqual(groups.map((_, gid) => gid));
  return rows.map(({ expected_day, clustered }) => ({ expected_day, clustered }));
}

describe("recurring detection: the day of the month (identifier_test.rb's private helpers)", () => {
  it("circular_distance calculates correct distance for days near month boundary", () => {
    expect([
      sure.circularDistance(31, 1),
      sure.circularDistance(1, 31),
      sure.circularDistance(30, 2),
      sure.circularDistance(15, 10),
      sure.circularDistance(15, 15),
    ]).toEqual([1, 1, 3, 5, 0]);
  });

  it("days_cluster_together: true for days wrapping the month boundary and consecutive mid-month days, false for widely spread days", async () => {
    const groups = [
      [29, 30, 31, 1, 2],
      [10, 11, 12, 13],
      [1, 15, 30],
    ];
    expect((await dayPatterns(groups)).map((row) => row.clustered)).toEqual([true, true, false]);
    expect(groups.map((days) => sure.clustered(days))).toEqual([true, true, false]);
  });

  it("agrees with Sure's pivot loop, median and standard deviation on thousands of random months", async () => {
    const samples = fc.sample(fc.array(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 14 }), { numRuns: 3_000, seed: 20260620 });
    // Ties between equally wide gaps, even counts, a single day, the whole month.
    const edges = [
      [1],
      [31],
      [1, 31],
      [16, 1],
      [1, 16],
      [1, 16, 31],
      [5, 5, 5],
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31],
    ];
    const groups = [...edges, ...samples];
    const sql = await dayPatterns(groups);
    const mismatches = groups.filter((days, index) => {
      const expected = sure.expectedDay([...days].sort((a, b) => a - b));
      const row = sql[index]!;
      return row.expected_day !== expected || (row.clustered !== sure.clustered([...days].sort((a, b) => a - b)) && !sure.onTheEdge(days));
    });
    expect(mismatches).toEqual([]);
  });

  it("next_expected_date in SQL agrees with next-expected-date.ts (month ends, leap years, December)", async () => {
    const cases: [string, number][] = [];
    for (const last of ["2025-01-31", "2024-01-31", "2026-02-28", "2025-12-31", "2099-12-15", "2023-11-30", "2026-06-01"]) {
      for (const day of [1, 15, 28, 29, 30, 31]) cases.push([last, day]);
    }
    const rows = await finance.db.$queryRaw<{ next: Date }[]>`
      SELECT ${nextExpectedDateSql(Prisma.sql`t.last`, Prisma.sql`t.day`)} AS next
        FROM unnest(${cases.map(([last]) => last)}::date[], ${cases.map(([, day]) => day)}::int[]) WITH ORDINALITY AS t(last, day, n) ORDER BY n`;
    expect(rows.map((row) => isoDateOf(row.next))).toEqual(cases.map(([last, day]) => nextExpectedDate(last, day)));
  });
});

describe("recurring detection: in the background after syncs", () => {
  it("a family's syncs ask for a debounced scan, which finds the pattern on its own and leaves the queue", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: 100, opening_balance_date: "2025-01-01" },
    });
    const today = todayIso();
    const day = Math.min(Number(today.slice(8, 10)), 28);
    for (const monthsAgo of [2, 1, 0]) {
      await call("transactions.create", {
        transaction: {
          account_id: account.id,
          date: `${monthsBefore(today, monthsAgo).slice(0, 8)}${String(day).padStart(2, "0")}`,
          amount: "9.99",
          name: "Music",
        },
      });
    }
    await settled(finance);
    const [found] = await eventually(async () => {
      const rows = (await call("recurringTransactions.list")).recurring_transactions as RecurringTransaction[];
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(found).toMatchObject({ name: "Music", amount_cents: 999, occurrence_count: 3, expected_day_of_month: day, manual: false });
    await eventually(async () =>
      expect(await finance.db.job.count({ where: { queue: RECURRING_SCAN_QUEUE, familyId: actor.familyId, status: { in: ["queued", "running"] } } })).toBe(0),
    );
  });
});

describe("recurring detection: the scan queue and its job", () => {
  const log = createLogger("recurring-test", "silent");
  const runners: JobRunner[] = [];
  /** An instance's runner of recurring scans over the real queue, whose scan only counts (and may wait or fail). */
  function countingRunner(options: Partial<RecurringScanOptions> = {}, work: (familyId: string) => Promise<void> = async () => {}) {
    const scans: string[] = [];
    const settings = { ...FAST, ...options };
    const runner = createJobRunner({
      databaseUrl: databaseUrlOf(finance.db),
      db: finance.db,
      log,
      pollMs: 25,
      heartbeatMs: 50,
      definitions: [
        recurringScanJob(
          finance.db,
          async (familyId) => {
            scans.push(familyId);
            await work(familyId);
          },
          log,
          settings,
        ),
      ],
    });
    runners.push(runner);
    return {
      runner,
      scans,
      request: (familyId: string) => requestRecurringScan(finance.db, familyId, settings.debounceMs),
      drain: () => runner.drain(RECURRING_SCAN_QUEUE),
    };
  }
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const waiting = (familyId: string) => finance.db.job.count({ where: { queue: RECURRING_SCAN_QUEUE, familyId, status: { in: ["queued", "running"] } } });
  const scanJobs = (familyId: string) => finance.db.job.findMany({ where: { queue: RECURRING_SCAN_QUEUE, familyId }, orderBy: { createdAt: "asc" } });

  // The service's own runner would take these jobs first: it stops for good (these cases come last).
  beforeAll(async () => finance.parts.jobs.stop());
  afterAll(async () => Promise.all(runners.map((runner) => runner.stop())));

  it("several requests in a row make one scan, after the debounce of the last", async () => {
    const familyId = randomUUID();
    const { scans, request, drain } = countingRunner({ debounceMs: 400 });
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      await request(familyId);
      await sleep(100);
    }
    await drain();
    expect(scans).toEqual([]); // the last request was 100 ms ago
    await eventually(async () => {
      await drain();
      expect(scans).toEqual([familyId]);
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 100 + 400);
    expect(await waiting(familyId)).toBe(0);
    expect(await scanJobs(familyId)).toHaveLength(1);
    await sleep(500);
    await drain();
    expect(scans).toEqual([familyId]);
  });

  it("a scan whose worker died is taken over at once, never while a live worker holds it; the late worker's end is not written", async () => {
    const familyId = randomUUID();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const doomed = countingRunner({ debounceMs: 0 }, async () => {
      await gate;
      throw new Error("this worker was presumed dead");
    });
    const other = countingRunner({ debounceMs: 0 });
    await doomed.request(familyId);
    doomed.runner.start();
    let stopping: Promise<void> | null = null;
    try {
      await eventually(async () => expect(doomed.scans).toEqual([familyId]));
      stopping = doomed.runner.stop();
      await other.drain();
      expect(other.scans).toEqual([]);

      const [job] = await scanJobs(familyId);
      await endJobConnection(finance, job!.id);
      await other.drain();
      expect(other.scans).toEqual([familyId]);
    } finally {
      // The late worker resumes (and its runner can stop) whatever the case found.
      open();
      await stopping;
    }
    expect(await scanJobs(familyId)).toMatchObject([{ status: "succeeded", attempts: 2, lastError: null }]);
  });

  it("a long scan keeps its job by its heartbeat: another instance does not run it twice", async () => {
    const familyId = randomUUID();
    const slow = countingRunner({ debounceMs: 0 }, async () => {
      await sleep(1_200);
    });
    const other = countingRunner({ debounceMs: 0 });
    await slow.request(familyId);
    const running = slow.drain();
    for (let i = 0; i < 10; i++) {
      await sleep(100);
      await other.drain();
    }
    await running;
    expect(slow.scans).toEqual([familyId]);
    expect(other.scans).toEqual([]);
    expect(await scanJobs(familyId)).toMatchObject([{ status: "succeeded", attempts: 1 }]);
  });

  it("a request that comes in while the family is being scanned makes another scan", async () => {
    const familyId = randomUUID();
    let requestedDuringScan = false;
    const counting = countingRunner({ debounceMs: 0 }, async () => {
      if (requestedDuringScan) return;
      requestedDuringScan = true;
      await counting.request(familyId);
    });
    await counting.request(familyId);
    await eventually(async () => {
      await counting.drain();
      expect(counting.scans).toEqual([familyId, familyId]);
    });
    expect(await waiting(familyId)).toBe(0);
  });

  it("a failed scan stays queued and is retried later", async () => {
    const familyId = randomUUID();
    let failures = 1;
    const { scans, request, drain } = countingRunner({ debounceMs: 0, retryAfterMs: 300 }, async () => {
      if (failures-- > 0) throw new Error("database hiccup");
    });
    await request(familyId);
    await drain();
    expect(scans).toEqual([familyId]);
    const [job] = await scanJobs(familyId);
    expect(job).toMatchObject({ status: "queued", lastError: "database hiccup" });
    expect(job!.runAfter.getTime()).toBeGreaterThan(Date.now());
    await drain();
    expect(scans).toHaveLength(1);
    await eventually(async () => {
      await drain();
      expect(scans).toEqual([familyId, familyId]);
    });
    expect(await waiting(familyId)).toBe(0);
  });

  it("a family with a sync still open is skipped; the scan its last sync asks for at its end runs (Sure skips a family with incomplete syncs)", async () => {
    const familyId = randomUUID();
    // Running, as far as the table says: no job of the service's runs it, so it stays open until the test ends it.
    const sync = await finance.db.sync.create({
      data: { familyId, syncableType: "Family", syncableId: familyId, status: "syncing", syncingAt: new Date() },
    });
    const { scans, request, drain } = countingRunner({ debounceMs: 0 });
    await request(familyId);
    await drain();
    expect(scans).toEqual([]);
    expect(await waiting(familyId)).toBe(0);
    await finance.db.sync.update({ where: { id: sync.id }, data: { status: "completed", completedAt: new Date() } });
    await request(familyId); // what the sync's job does at its end
    await drain();
    expect(scans).toEqual([familyId]);
  });
});
