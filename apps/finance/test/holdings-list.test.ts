// GET /api/v1/holdings over position spans: every page, whatever its size and filters, is the
// slice of the whole ordered list of span days it should be (the page is located from the spans'
// ends, not by generating every day), and what a read prices stays a 4xx when it cannot be valued.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Holding } from "@hearth/contracts";
import { randomSource } from "@hearth/demo-seed";
import { allHoldings, expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;

const today = () => new Date().toISOString().slice(0, 10);
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Every day of every stored span up to today, in the list's order: what the pages must add up to. */
async function expectedDays(familyId: string, keep: (row: { date: string; accountId: string; securityId: string }) => boolean = () => true) {
  const spans = await finance.db.holdingSpan.findMany({ where: { familyId } });
  const rows: { date: string; accountId: string; securityId: string }[] = [];
  for (const span of spans) {
    const end = span.endDate ? span.endDate.toISOString().slice(0, 10) : today();
    for (let date = span.startDate.toISOString().slice(0, 10); date <= end && date <= today(); date = addDays(date, 1)) {
      const row = { date, accountId: span.accountId, securityId: span.securityId };
      if (keep(row)) rows.push(row);
    }
  }
  return rows.sort((a, b) => a.date.localeCompare(b.date) || a.securityId.localeCompare(b.securityId) || a.accountId.localeCompare(b.accountId));
}

const keyOf = (row: Holding) => ({ date: row.date, accountId: row.account.id, securityId: row.security.id });

describe("the holdings list", () => {
  let call: Call;
  let familyId: string;
  let accounts: string[];
  let securities: Map<string, string>;

  beforeAll(async () => {
    const actor = newActor();
    familyId = actor.familyId;
    call = financeAs(finance, actor);
    accounts = [];
    for (const name of ["Brokerage", "Crypto"]) {
      const type = name === "Crypto" ? "crypto" : "investment";
      accounts.push((await call("accounts.create", { account: { name, account_type: type, balance: "50000", opening_balance_date: "2026-01-01" } })).id);
    }
    const random = randomSource(7);
    const tickers = ["AAA", "BBB", "CCC"];
    for (let i = 0; i < 24; i++) {
      const date = addDays("2026-01-02", random.int(0, 250));
      const sell = i % 5 === 4;
      await call("trades.create", {
        trade: {
          account_id: accounts[i % 2],
          type: sell ? "sell" : "buy",
          date,
          qty: String(random.int(1, 9)),
          price: `${random.int(10, 90)}.5`,
          ticker: tickers[i % 3],
        },
      });
    }
    await call("securityPrices.record", {
      security_prices: tickers.map((ticker, i) => ({ ticker, date: addDays("2026-03-01", i * 10), price: `${40 + i}.25` })),
    });
    await settled(finance);
    const listed = await call("securities.list", {});
    securities = new Map(listed.securities.map((security: { id: string; ticker: string }) => [security.ticker, security.id]));
  });

  it("pages of 7 and of 100 add up to every span day in order, with the right total", async () => {
    const expected = await expectedDays(familyId);
    expect(expected.length).toBeGreaterThan(500);
    for (const perPage of [7, 100]) {
      const { rows, total } = await allHoldings(call, {}, perPage);
      expect(total).toBe(expected.length);
      expect(rows.map(keyOf)).toEqual(expected);
      expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    }
  });

  it("any single row, at any offset, is the one at that place in the whole list", async () => {
    const expected = await expectedDays(familyId);
    const random = randomSource(3);
    const offsets = [0, 1, expected.length - 1, expected.length - 2, ...Array.from({ length: 25 }, () => random.int(0, expected.length - 1))];
    for (const offset of offsets) {
      const listed = await call("holdings.list", { page: offset + 1, per_page: 1 });
      expect(listed.holdings.map(keyOf), `row ${offset}`).toEqual([expected[offset]]);
    }
    const past = await call("holdings.list", { page: 1000, per_page: 100 });
    expect(past.holdings).toEqual([]);
    expect(past.pagination.total_count).toBe(expected.length);
  });

  it("filters (a day, a range, an account, accounts, a security) give the same slices of the same order", async () => {
    const security = securities.get("BBB")!;
    const cases: [Record<string, unknown>, (row: { date: string; accountId: string; securityId: string }) => boolean][] = [
      [{ date: "2026-06-15" }, (row) => row.date === "2026-06-15"],
      [{ start_date: "2026-04-10", end_date: "2026-05-20" }, (row) => row.date >= "2026-04-10" && row.date <= "2026-05-20"],
      [{ start_date: "2026-08-01", account_id: accounts[1] }, (row) => row.date >= "2026-08-01" && row.accountId === accounts[1]],
      [{ account_ids: accounts, security_id: security, end_date: "2026-07-04" }, (row) => row.securityId === security && row.date <= "2026-07-04"],
      [{ date: "2026-06-15", start_date: "2026-06-16" }, () => false],
    ];
    for (const [query, keep] of cases) {
      const expected = await expectedDays(familyId, keep);
      for (const perPage of [3, 100]) {
        const { rows, total } = await allHoldings(call, query, perPage);
        expect(total, JSON.stringify(query)).toBe(expected.length);
        expect(rows.map(keyOf), JSON.stringify(query)).toEqual(expected);
      }
    }
  });

  it("a new price moves the updated_at of the days it values", async () => {
    const security = securities.get("AAA")!;
    const date = "2026-09-15";
    const before = (await call("holdings.list", { security_id: security, date })).holdings as Holding[];
    expect(before.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await call("securityPrices.record", { security_price: { ticker: "AAA", date, price: "77.5" } });
    await settled(finance);
    const after = (await call("holdings.list", { security_id: security, date })).holdings as Holding[];
    for (let i = 0; i < after.length; i++) expect(Date.parse(after[i]!.updated_at)).toBeGreaterThan(Date.parse(before[i]!.updated_at));
  });
});

describe("a holding that cannot be valued", () => {
  it("is a 422 naming the day, not a 500, when a price recorded since makes its value too large for an amount", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-01", qty: "5000", price: "1", ticker: "HUGE" } });
    await settled(finance);
    await call("securityPrices.record", { security_price: { ticker: "HUGE", date: "2026-03-01", price: "9999999999999" } });
    await settled(finance).catch(() => undefined);
    const error = await expectAppError(call("holdings.list", { account_id: account.id, date: "2026-03-02" }), "unprocessable_entity");
    expect(error.message).toContain("2026-03-02");
    expect((await call("holdings.list", { account_id: account.id, date: "2026-02-15" })).holdings).toHaveLength(1);
  });
});
