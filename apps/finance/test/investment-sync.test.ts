// The materializer on an investment account, against the database: syncs that follow each write
// (windows from the changed day) store exactly what a full recomputation from nothing stores, for
// balances and holdings alike, through buys, sells, dividends, prices, backdated and deleted trades.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomSource } from "@hearth/demo-seed";
import { materializeBalances } from "../src/balances/balance-materializer";
import { financeAs, newActor, settled, startFinance, storedBalances, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

async function storedHoldings(accountId: string) {
  const rows = await finance.db.holding.findMany({ where: { accountId }, orderBy: [{ date: "asc" }, { securityId: "asc" }] });
  return rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...row }) => ({
    ...row,
    qty: row.qty.toFixed(),
    price: row.price.toFixed(),
    avgCost: row.avgCost?.toFixed() ?? null,
  }));
}

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
    const holdings = await storedHoldings(account.id);
    expect(holdings.length).toBeGreaterThan(100);

    await finance.db.holding.deleteMany({ where: { accountId: account.id } });
    await finance.db.balance.deleteMany({ where: { accountId: account.id } });
    await materializeBalances(finance.db, account.id, null);
    expect(await storedHoldings(account.id)).toEqual(holdings);
    expect(await storedBalances(finance, account.id)).toEqual(balances);

    // Every day: the non-cash balance is that day's holdings value.
    const valueByDay = new Map<string, bigint>();
    for (const row of holdings) valueByDay.set(row.date.toISOString(), (valueByDay.get(row.date.toISOString()) ?? 0n) + row.amountCents);
    for (const row of balances) expect(row.endNonCashCents).toBe(valueByDay.get(row.date.toISOString()) ?? 0n);

    // The account's balance and the balance sheet include the holdings.
    const last = balances.at(-1)!;
    const detail = await call("accounts.get", { id: account.id });
    expect(BigInt(detail.balance_cents)).toBe(last.endCashCents + last.endNonCashCents);
    const sheet = await call("balanceSheet.get", {});
    expect(sheet.net_worth.amount).toBe((detail.balance_cents / 100).toFixed(2));
  });
});

describe("a full recomputation", () => {
  it("removes holdings dated before the account's opening day (was left behind after the opening moved later)", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    const trade = (await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-01", qty: 1, price: 10, ticker: "STALE" } }))
      .body;
    await settled(finance);
    const stray = await finance.db.holding.findFirstOrThrow({ where: { accountId: account.id } });
    await finance.db.holding.create({
      data: { ...stray, id: undefined, date: new Date("2025-06-01T00:00:00Z"), createdAt: undefined, updatedAt: undefined },
    });
    await materializeBalances(finance.db, account.id, null);
    expect(await finance.db.holding.count({ where: { accountId: account.id, date: { lt: new Date("2026-01-01T00:00:00Z") } } })).toBe(0);
    expect(trade.id).toBeDefined();
  });
});

describe("a recomputation over stored holdings", () => {
  it("rewrites no row when nothing changed, for a lone trade and for a position without buys (null avg cost)", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    // A lone sell: one trade, and no buy, so no row has an avg cost.
    await call("trades.create", { trade: { account_id: account.id, type: "sell", date: "2026-03-01", qty: "0.00012345", price: "43210.5", ticker: "LONE" } });
    await settled(finance);
    const before = await finance.db.holding.findMany({ where: { accountId: account.id }, orderBy: { date: "asc" } });
    expect(before.length).toBeGreaterThan(10);
    expect(before.every((row) => row.avgCost === null)).toBe(true);

    await materializeBalances(finance.db, account.id, null);
    const after = await finance.db.holding.findMany({ where: { accountId: account.id }, orderBy: { date: "asc" } });
    expect(after.map((row) => [row.id, row.updatedAt.getTime()])).toEqual(before.map((row) => [row.id, row.updatedAt.getTime()]));
  });

  it("writes rows with UUIDv7 ids that rise with the day (the primary key grows at its end)", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("trades.create", { trade: { account_id: account.id, type: "buy", date: "2026-02-01", qty: "2", price: "10", ticker: "IDS" } });
    await settled(finance);
    const ids = (await finance.db.holding.findMany({ where: { accountId: account.id }, orderBy: { date: "asc" } })).map((row) => row.id);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
