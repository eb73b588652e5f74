// The materializer on an investment account, against the database: syncs that follow each write
// (windows from the changed day) store exactly what a full recomputation from nothing stores, for
// balances and holdings alike, through buys, sells, dividends, prices, backdated and deleted trades.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomSource } from "@hearth/demo-seed";
import { materializeBalances } from "../src/balances/balance-materializer";
import { allHoldings, financeAs, newActor, settled, startFinance, storedBalances, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

/** The account's position spans as stored (what a sync writes), without their ids and times. */
async function storedSpans(accountId: string) {
  const rows = await finance.db.holdingSpan.findMany({ where: { accountId }, orderBy: [{ securityId: "asc" }, { startDate: "asc" }] });
  return rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...row }) => ({
    ...row,
    qty: row.qty.toFixed(),
    tradePrice: row.tradePrice.toFixed(),
    avgCost: row.avgCost?.toFixed() ?? null,
  }));
}

/** Every holding of the account through the API's list, oldest first. */
const listedHoldings = async (call: ReturnType<typeof financeAs>, accountId: string) => (await allHoldings(call, { account_id: accountId })).rows;

describe("investment account syncs", () => {
  it("windows after each write store what a full recomputation stores (balances and holdings)", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "25000", opening_balance_date: "2026-01-01" },
    });
    const random = randomSource(11);
    const day = () => `2026-0${random.int(1, 9)}-${String(random.int(1, 28)).padStart(2, "0")}`;
    const tickers = ["AAA", "BBB", "CCC"];
    const trades: string[] = [];
    for (let round = 0; round < 12; round++) {
      const ticker = tickers[round % 3]!;
      const kind = round % 5 === 4 ? "dividend" : round % 4 === 3 ? "sell" : "buy";
      const trade =
        kind === "dividend"
          ? { account_id: account.id, type: "dividend", date: day(), amount: String(random.int(1, 90)), ticker }
          : {
              account_id: account.id,
              type: kind,
              date: day(),
              qty: String(random.int(1, 30)),
              price: `${random.int(10, 400)}.${random.int(0, 99)}`,
              fee: "1.5",
              ticker,
            };
      trades.push((await call("trades.create", { trade })).body.id);
      if (round % 3 === 2) {
        await call("securityPrices.record", {
          security_prices: [
            { ticker, date: day(), price: `${random.int(10, 400)}.25` },
            { ticker: tickers[(round + 1) % 3], date: day(), price: `${random.int(10, 400)}` },
          ],
        });
      }
      if (round === 8) await call("trades.delete", { id: trades[2] });
      if (round === 9) await call("trades.update", { id: trades[1], trade: { date: "2026-01-15", qty: "7" } });
      await settled(finance);
    }
    const balances = await storedBalances(finance, account.id);
    const spans = await storedSpans(account.id);
    const holdings = await listedHoldings(call, account.id);
    expect(holdings.length).toBeGreaterThan(100);

    await finance.db.holdingSpan.deleteMany({ where: { accountId: account.id } });
    await finance.db.balance.deleteMany({ where: { accountId: account.id } });
    await materializeBalances(finance.db, account.id, null);
    expect(await storedSpans(account.id)).toEqual(spans);
    expect(await storedBalances(finance, account.id)).toEqual(balances);
    expect((await listedHoldings(call, account.id)).map(({ created_at: _c, updated_at: _u, ...row }: any) => row)).toEqual(
      holdings.map(({ created_at: _c, updated_at: _u, ...row }: any) => row),
    );

    // Every day: the non-cash balance is that day's holdings value (the list prices each day as the sync did).
    const valueByDay = new Map<string, bigint>();
    for (const row of holdings) valueByDay.set(row.date, (valueByDay.get(row.date) ?? 0n) + BigInt(row.amount_cents));
    const today = new Date().toISOString().slice(0, 10);
    for (const row of balances) {
      const date = row.date.toISOString().slice(0, 10);
      if (date <= today) expect(row.endNonCashCents, date).toBe(valueByDay.get(date) ?? 0n);
    }

    // The account's balance and the balance sheet include the holdings.
    const last = balances.at(-1)!;
    const detail = await call("accounts.get", { id: account.id });
    expect(BigInt(detail.balance_cents)).toBe(last.endCashCents + last.endNonCashCents);
    const sheet = await call("balanceSheet.get", {});
    expect(sheet.net_worth.amount).toBe((detail.balance_cents / 100).toFixed(2));
  });
});

describe("a full recomputation", () => {
  it("removes spans no trade gives any more (a stray one stored before the first trade)", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-01", qty: 1, price: 10, ticker: "STALE" } });
    await settled(finance);
    const spans = await storedSpans(account.id);
    const stray = await finance.db.holdingSpan.findFirstOrThrow({ where: { accountId: account.id } });
    await finance.db.holdingSpan.create({
      data: {
        ...stray,
        id: undefined,
        startDate: new Date("2025-06-01T00:00:00Z"),
        endDate: new Date("2026-01-31T00:00:00Z"),
        createdAt: undefined,
        updatedAt: undefined,
      },
    });
    await materializeBalances(finance.db, account.id, null);
    expect(await storedSpans(account.id)).toEqual(spans);
  });
});

describe("a window over stale spans (a sync that failed left them behind)", () => {
  it("recomputes everything instead of carrying a stale span, a stray one or one a removed trade left into the window", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2026-01-01" },
    });
    const buy = (date: string, qty: string, ticker: string) =>
      call("trades.create", { trade: { account_id: account.id, type: "buy", date, qty, price: "10", ticker } });
    await buy("2026-01-05", "10", "STALEX");
    const second = (await buy("2026-01-10", "5", "STALEX")).body;
    await buy("2026-01-07", "2", "STALEY");
    await settled(finance);

    // The second buy goes without its sync (as if that sync failed): the stored spans still count it.
    await finance.db.trade.delete({ where: { entryId: second.id } });
    await finance.db.entry.delete({ where: { id: second.id } });
    await materializeBalances(finance.db, account.id, "2026-03-01");
    const windowed = await storedSpans(account.id);
    await finance.db.holdingSpan.deleteMany({ where: { accountId: account.id } });
    await materializeBalances(finance.db, account.id, null);
    expect(windowed).toEqual(await storedSpans(account.id));

    // A stray span before a security's first trade, then one of a security without trades before the window.
    const [span] = await finance.db.holdingSpan.findMany({ where: { accountId: account.id }, orderBy: { startDate: "asc" }, take: 1 });
    const stray = (startDate: string, endDate: string, securityId = span!.securityId) =>
      finance.db.holdingSpan.create({
        data: {
          ...span!,
          id: undefined,
          securityId,
          startDate: new Date(`${startDate}T00:00:00Z`),
          endDate: new Date(`${endDate}T00:00:00Z`),
          createdAt: undefined,
          updatedAt: undefined,
        },
      });
    const clean = await storedSpans(account.id);
    await stray("2026-01-02", "2026-01-04");
    await materializeBalances(finance.db, account.id, "2026-03-01");
    expect(await storedSpans(account.id)).toEqual(clean);
    const other = await finance.db.security.create({ data: { familyId: span!.familyId, ticker: "STRAYZ", name: "Stray", offline: true } });
    await stray("2026-02-01", "2026-02-10", other.id);
    await materializeBalances(finance.db, account.id, "2026-03-01");
    expect(await storedSpans(account.id)).toEqual(clean);
  });
});

describe("a recomputation over stored spans", () => {
  it("rewrites no span when nothing changed, for a lone trade and for a position without buys (null avg cost)", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    // A lone sell: one trade, and no buy, so no day has an avg cost.
    await call("trades.create", { trade: { account_id: account.id, type: "sell", date: "2026-03-01", qty: "0.00012345", price: "43210.5", ticker: "LONE" } });
    await settled(finance);
    const before = await finance.db.holdingSpan.findMany({ where: { accountId: account.id }, orderBy: { startDate: "asc" } });
    expect(before).toHaveLength(1);
    expect((await listedHoldings(call, account.id)).every((row: any) => row.avg_cost === null)).toBe(true);

    await materializeBalances(finance.db, account.id, null);
    const after = await finance.db.holdingSpan.findMany({ where: { accountId: account.id }, orderBy: { startDate: "asc" } });
    expect(after.map((row) => [row.id, row.updatedAt.getTime()])).toEqual(before.map((row) => [row.id, row.updatedAt.getTime()]));
  });

  it("keeps a holding's id whatever syncs rewrite: a backdated trade splits spans, ids of the same position and day stay", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-01", qty: "2", price: "10", ticker: "IDS" } });
    await settled(finance);
    const before = await listedHoldings(call, account.id);
    expect(before.length).toBeGreaterThan(10);
    expect(new Set(before.map((row) => row.id)).size).toBe(before.length);
    for (const row of before) expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-10", qty: "1", price: "12", ticker: "IDS" } });
    await settled(finance);
    expect(await finance.db.holdingSpan.count({ where: { accountId: account.id } })).toBe(2);
    const after = await listedHoldings(call, account.id);
    expect(after.map((row) => [row.date, row.id])).toEqual(before.map((row) => [row.date, row.id]));
    // Each id reads back its own day.
    for (const row of [after[0]!, after[9]!, after.at(-1)!]) expect(await call("holdings.get", { id: row.id })).toEqual(row);
  });
});
