// Sure's numbers through the API (Sure compatibility): where the opening balance sits,
// which accounts transactions move, the newest balance row as the account's balance, the rows of
// the opening day, exact conversion of foreign entries, and the transaction fields and writes a
// Sure client relies on. Each case names the Sure test or source it mirrors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const today = () => isoDay(0);

let familyCount = 0;
async function family(): Promise<TestUser> {
  return signUpUser(api, `ledger-sure-${++familyCount}`);
}

/** Every sync the family queued has finished (balances are current). */
async function settled(user: TestUser): Promise<void> {
  await eventually(async () => {
    const res = await api.get("/api/v1/syncs?per_page=100", { apiKey: user.readKey });
    expect(res.status).toBe(200);
    const open = res.body.data.filter((sync: { status: string }) => sync.status === "pending" || sync.status === "syncing");
    expect(open).toEqual([]);
  });
}

async function post(user: TestUser, path: string, body: unknown): Promise<any> {
  const res = await api.post(path, body, { apiKey: user.writeKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function account(user: TestUser, fields: Record<string, unknown>): Promise<any> {
  return post(user, "/api/v1/accounts", { account: { name: "Account", account_type: "depository", ...fields } });
}

async function transaction(user: TestUser, fields: Record<string, unknown>): Promise<any> {
  return post(user, "/api/v1/transactions", { transaction: { name: "Entry", ...fields } });
}

async function balanceOf(user: TestUser, id: string): Promise<number> {
  await settled(user);
  const res = await api.get(`/api/v1/accounts/${id}`, { apiKey: user.readKey });
  expect(res.status).toBe(200);
  return res.body.balance_cents;
}

async function openingAnchor(user: TestUser, accountId: string): Promise<any> {
  const res = await api.get(`/api/v1/valuations?account_id=${accountId}&per_page=100`, { apiKey: user.readKey });
  return res.body.valuations.find((valuation: { kind: string }) => valuation.kind === "opening_anchor");
}

async function netWorthCents(user: TestUser): Promise<number> {
  await settled(user);
  const { amount } = (await api.get("/api/v1/balance_sheet", { apiKey: user.readKey })).body.net_worth;
  return Math.round(Number(amount) * 100); // a decimal string such as "-85000.00"
}

describe("the opening balance is the balance before every entry (Sure's Account::OpeningBalanceManager)", () => {
  it("a new account's opening balance sits two years back, so an expense dated today moves the balance", async () => {
    const user = await family();
    const checking = await account(user, { balance: 1000 });
    const anchor = await openingAnchor(user, checking.id);
    // Sure: default_date is 2.years.ago.to_date with no entries.
    expect(anchor.date).toBe(`${Number(today().slice(0, 4)) - 2}${today().slice(4)}`.replace(/-02-29$/, "-02-28"));
    await transaction(user, { account_id: checking.id, date: today(), amount: 50 });
    expect(await balanceOf(user, checking.id)).toBe(95_000); // was 100,000: the anchor absorbed today's entries
  });

  it("an entry older than the anchor moves the anchor to the day before it, and still counts", async () => {
    const user = await family();
    const checking = await account(user, { balance: 1000, opening_balance_date: "2026-01-10" });
    await transaction(user, { account_id: checking.id, date: "2025-12-01", amount: 100 });
    expect(await balanceOf(user, checking.id)).toBe(90_000);
    expect((await openingAnchor(user, checking.id)).date).toBe("2025-11-30");
    // An entry on the anchor's own day moves it too.
    await transaction(user, { account_id: checking.id, date: "2025-11-30", amount: "0.5", nature: "income" });
    expect(await balanceOf(user, checking.id)).toBe(90_050);
    expect((await openingAnchor(user, checking.id)).date).toBe("2025-11-29");
  });

  it("refuses to move the opening balance on or after the oldest entry (Sure: 'Opening balance date must be before the oldest entry date')", async () => {
    const user = await family();
    const checking = await account(user, { balance: 1000, opening_balance_date: "2026-01-01" });
    await transaction(user, { account_id: checking.id, date: "2026-02-01", amount: 10 });
    const anchor = await openingAnchor(user, checking.id);
    const moved = await api.patch(`/api/v1/valuations/${anchor.id}`, { valuation: { date: "2026-02-01", amount: 1000 } }, { apiKey: user.writeKey });
    expect(moved.status).toBe(422);
    expect(JSON.stringify(moved.body), JSON.stringify(moved.body)).toContain("Opening balance date must be before the oldest entry date");
    const earlier = await api.patch(`/api/v1/valuations/${anchor.id}`, { valuation: { date: "2025-12-01", amount: 1000 } }, { apiKey: user.writeKey });
    expect(earlier.status).toBe(200);
    expect(await balanceOf(user, checking.id)).toBe(99_000);
  });

  it("the opening day's row starts at the opening balance with no adjustment (Sure's forward_calculator_test.rb)", async () => {
    const user = await family();
    const checking = await account(user, { balance: 200, opening_balance_date: "2026-03-01" });
    await transaction(user, { account_id: checking.id, date: "2026-03-02", amount: 5 });
    await settled(user);
    const rows = (await api.get(`/api/v1/balances?account_id=${checking.id}&start_date=2026-02-01&end_date=2026-03-02`, { apiKey: user.readKey })).body
      .balances;
    const byDate = new Map(rows.map((row: { date: string }) => [row.date, row]));
    expect(byDate.has("2026-02-28")).toBe(false); // nothing before the opening day
    expect(byDate.get("2026-03-01")).toMatchObject({
      start_balance_cents: 20_000,
      cash_inflows_cents: 0,
      cash_outflows_cents: 0,
      cash_adjustments_cents: 0,
      non_cash_adjustments_cents: 0,
      end_balance_cents: 20_000,
    });
    expect(byDate.get("2026-03-02")).toMatchObject({ start_balance_cents: 20_000, cash_outflows_cents: 500, end_balance_cents: 19_500 });
  });
});

describe("non-cash accounts move by valuations only (Sure's forward_calculator_test.rb)", () => {
  it("a repair on a car, a payment to an other liability: balances and net worth stay; a loan payment lowers the loan", async () => {
    const user = await family();
    const car = await account(user, { name: "Car", account_type: "vehicle", balance: 20_000 });
    const debt = await account(user, { name: "Family loan", account_type: "other_liability", balance: 5_000 });
    const loan = await account(user, { name: "Mortgage", account_type: "loan", balance: 100_000 });
    const before = await netWorthCents(user);
    expect(before).toBe(2_000_000 - 500_000 - 10_000_000);

    await transaction(user, { account_id: car.id, date: today(), amount: 500, name: "Repair" });
    await transaction(user, { account_id: debt.id, date: today(), amount: 1_000, nature: "income", name: "Payment" });
    expect(await balanceOf(user, car.id)).toBe(2_000_000);
    expect(await balanceOf(user, debt.id)).toBe(500_000);
    expect(await netWorthCents(user)).toBe(before);

    // Sure: "loan payment transactions affect non cash balance".
    await transaction(user, { account_id: loan.id, date: today(), amount: 1_000, nature: "income", name: "Payment" });
    expect(await balanceOf(user, loan.id)).toBe(9_900_000);

    // A valuation still sets a non-cash balance.
    await post(user, "/api/v1/valuations", { valuation: { account_id: car.id, date: today(), amount: 18_000 } });
    expect(await balanceOf(user, car.id)).toBe(1_800_000);
  });
});

describe("the account's balance is its newest balance row (Sure: account.balance after sync)", () => {
  it("includes a future-dated entry at once", async () => {
    const user = await family();
    const checking = await account(user, { balance: 100 });
    await transaction(user, { account_id: checking.id, date: isoDay(10), amount: 30 });
    expect(await balanceOf(user, checking.id)).toBe(7_000);
    const rows = (await api.get(`/api/v1/balances?account_id=${checking.id}&per_page=1`, { apiKey: user.readKey })).body.balances;
    expect(rows[0]).toMatchObject({ date: isoDay(10), end_balance_cents: 7_000 });
  });
});

describe("entries in another currency convert exactly (Sure keeps converted balances at 4 decimals)", () => {
  it("three 0.01 EUR inflows at 1.5 raise a USD account by 0.05, not 0.06", async () => {
    const user = await family();
    const checking = await account(user, { balance: 0, currency: "USD", opening_balance_date: "2026-01-01" });
    await post(user, "/api/v1/exchange_rates", { from: "EUR", to: "USD", date: "2026-01-01", rate: "1.5" });
    for (const date of ["2026-01-02", "2026-01-03", "2026-01-04"]) {
      await transaction(user, { account_id: checking.id, date, amount: "0.01", currency: "EUR", nature: "income" });
    }
    expect(await balanceOf(user, checking.id)).toBe(5);
  });

  it("a rate the Decimal(24, 12) column cannot hold is refused with 422, not rounded to 0 or overflowing into a 500", async () => {
    const user = await family();
    for (const rate of ["0.0000000000001", "1234567890123"]) {
      const res = await api.post("/api/v1/exchange_rates", { from: "EUR", to: "USD", date: "2026-01-01", rate }, { apiKey: user.writeKey });
      expect(res.status, `${rate}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toMatchObject({ error: "validation_failed", errors: ["Rate has at most 12 digits before the point and 12 after"] });
    }
    const list = await api.get("/api/v1/exchange_rates", { apiKey: user.readKey });
    expect(list.body.exchange_rates).toEqual([]);
    // The smallest and the largest rates the column holds are taken as sent.
    for (const rate of ["0.000000000001", "999999999999.999999999999"]) {
      const res = await api.post("/api/v1/exchange_rates", { from: "EUR", to: "USD", date: "2026-01-01", rate }, { apiKey: user.writeKey });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(res.body.rate).toBe(rate);
    }
  });
});

describe("transaction writes as Sure's transactions controller takes them", () => {
  it("PATCH with nature but no amount keeps the stored sign (calculate_signed_amount needs an amount)", async () => {
    const user = await family();
    const checking = await account(user, { balance: 100 });
    const coffee = await transaction(user, { account_id: checking.id, date: today(), amount: 4 });
    const patched = await api.patch(`/api/v1/transactions/${coffee.id}`, { transaction: { nature: "income" } }, { apiKey: user.writeKey });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ amount_cents: 400, signed_amount_cents: -400, classification: "expense" });
    const resigned = await api.patch(`/api/v1/transactions/${coffee.id}`, { transaction: { nature: "income", amount: 4 } }, { apiKey: user.writeKey });
    expect(resigned.body).toMatchObject({ signed_amount_cents: 400, classification: "income" });
  });

  it("type=expense lists amounts above zero only, type=income below zero (zero is neither)", async () => {
    const user = await family();
    const checking = await account(user, { balance: 100 });
    await transaction(user, { account_id: checking.id, date: today(), amount: 0, name: "Zero" });
    await transaction(user, { account_id: checking.id, date: today(), amount: 3, name: "Spend" });
    await transaction(user, { account_id: checking.id, date: today(), amount: 3, nature: "income", name: "Earn" });
    const names = async (type: string) =>
      (await api.get(`/api/v1/transactions?type=${type}`, { apiKey: user.readKey })).body.transactions.map((t: { name: string }) => t.name);
    expect(await names("expense")).toEqual(["Spend"]);
    expect(await names("income")).toEqual(["Earn"]);
  });

  it("POST /api/v1/sync answers Sure's sync/create view: syncing_at and its message", async () => {
    const user = await family();
    const res = await api.post("/api/v1/sync", {}, { apiKey: user.writeKey });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "pending",
      syncable_type: "Family",
      syncing_at: null,
      message: "Sync has been queued and will apply all active rules",
    });
    expect(res.body).not.toHaveProperty("started_at");
  });
});
