// Investments through the gateway as a Sure client uses them: scopes, the trade and
// holding shapes, prices moving holdings and the account's balance, and Sure's error answers.
// Cases mirror Sure's test/controllers/api/v1/trades_controller_test.rb, holdings_controller_test.rb,
// securities_controller_test.rb and security_prices_controller_test.rb where named.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HoldingCollectionSchema, SecurityCollectionSchema, SecurityPriceSchema, TradeCollectionSchema, TradeSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let brokerage: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "investor");
  const created = await api.post(
    "/api/v1/accounts",
    { account: { name: "Robinhood Brokerage Account", account_type: "investment", balance: "10000", opening_balance_date: "2026-01-01" } },
    { apiKey: user.writeKey },
  );
  expect(created.status).toBe(201);
  brokerage = created.body.id;
});
afterAll(async () => system?.stop());

/** Every sync the family queued has finished (balances and holdings are current). */
async function settled(): Promise<void> {
  await eventually(async () => {
    const res = await api.get("/api/v1/syncs?per_page=100", { apiKey: user.readKey });
    const open = res.body.data.filter((sync: { status: string }) => sync.status === "pending" || sync.status === "syncing");
    expect(open).toEqual([]);
  });
}

const buy = { trade: { account_id: "", type: "buy", date: "2026-06-01", qty: 10, price: 100.0, ticker: "VTI" } };

describe("trades over HTTP", () => {
  it("need a key with read_write to write (403 read-only, 401 without one)", async () => {
    const body = { trade: { ...buy.trade, account_id: brokerage } };
    expect((await api.post("/api/v1/trades", body, { apiKey: user.readKey })).status).toBe(403);
    expect((await api.post("/api/v1/trades", body)).status).toBe(401);
    expect((await api.get("/api/v1/trades", { apiKey: user.readKey })).status).toBe(200);
  });

  it("create, show, list and delete in Sure's shapes; 404 with Sure's message for a trade that is not there", async () => {
    const created = await api.post("/api/v1/trades", { trade: { ...buy.trade, account_id: brokerage } }, { apiKey: user.writeKey });
    expect(created.status).toBe(201);
    const trade = TradeSchema.parse(created.body);
    expect(trade).toMatchObject({ name: "Buy 10.0 shares of VTI", qty: "10.0", price: "$100.00", amount: "$1,000.00", investment_activity_label: "Buy" });
    expect((await api.get(`/api/v1/trades/${trade.id}`, { apiKey: user.readKey })).body).toEqual(created.body);
    const listed = TradeCollectionSchema.parse((await api.get(`/api/v1/trades?account_id=${brokerage}`, { apiKey: user.readKey })).body);
    expect(listed.trades.map((t) => t.id)).toContain(trade.id);
    const missing = await api.get("/api/v1/trades/999999", { apiKey: user.readKey });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found", message: "Trade not found" });
    const invalid = await api.get("/api/v1/trades?start_date=invalid", { apiKey: user.readKey });
    expect(invalid.status).toBe(422);
    expect(JSON.stringify(invalid.body)).toContain("start_date");
    const removed = await api.delete(`/api/v1/trades/${trade.id}`, { apiKey: user.writeKey });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: "Trade deleted successfully" });
    const unknownAccount = await api.post("/api/v1/trades", { trade: { ...buy.trade, account_id: 999999 } }, { apiKey: user.writeKey });
    expect(unknownAccount.status).toBe(404);
    expect(unknownAccount.body).toMatchObject({ error: "not_found", message: "Account not found" });
  });
});

describe("prices, holdings and the balance they make", () => {
  it("a recorded price revalues the holdings from its day on, and the account's balance is cash + holdings", async () => {
    const created = await api.post(
      "/api/v1/trades",
      { trade: { ...buy.trade, account_id: brokerage, ticker: "VOO", date: "2026-07-01", qty: "4", price: "500" } },
      { apiKey: user.writeKey },
    );
    expect(created.status).toBe(201);
    const security = created.body.security.id as string;
    const priced = await api.post(
      "/api/v1/security_prices",
      {
        security_prices: [
          { security_id: security, date: "2026-07-02", price: "510.25" },
          { ticker: "voo", date: "2026-07-10", price: "520" },
        ],
      },
      { apiKey: user.writeKey },
    );
    expect(priced.status).toBe(201);
    expect(SecurityPriceSchema.parse(priced.body.security_prices[0])).toMatchObject({ price: "$510.25", price_amount: "510.2500", provisional: false });
    await settled();

    const holdingOn = async (date: string) => {
      const res = await api.get(`/api/v1/holdings?account_id=${brokerage}&security_id=${security}&date=${date}`, { apiKey: user.readKey });
      expect(res.status).toBe(200);
      return HoldingCollectionSchema.parse(res.body).holdings[0];
    };
    expect(await holdingOn("2026-07-01")).toMatchObject({ qty: "4.0", price: "$500.00", amount_cents: 200000, avg_cost: "$500.00" });
    expect(await holdingOn("2026-07-05")).toMatchObject({ price: "$510.25", amount_cents: 204100 });
    expect(await holdingOn("2026-07-10")).toMatchObject({ price: "$520.00", amount_cents: 208000 });
    // A carried price is provisional until a real one comes for its day.
    const carried = await api.get(`/api/v1/security_prices?security_id=${security}&start_date=2026-07-05&end_date=2026-07-05`, { apiKey: user.readKey });
    expect(carried.body.security_prices[0]).toMatchObject({ price_amount: "510.2500", provisional: true });

    const account = await api.get(`/api/v1/accounts/${brokerage}`, { apiKey: user.readKey });
    const holdingsToday = (await api.get(`/api/v1/holdings?account_id=${brokerage}&date=${new Date().toISOString().slice(0, 10)}`, { apiKey: user.readKey }))
      .body.holdings as { amount_cents: number }[];
    const holdingsValue = holdingsToday.reduce((sum, holding) => sum + holding.amount_cents, 0);
    expect(holdingsValue).toBe(208000);
    expect(account.body.balance_cents).toBe(account.body.cash_balance_cents + holdingsValue);
    expect(account.body.cash_balance_cents).toBe(1_000_000 - 200_000);
  });

  it("lists only the family's traded securities; per_page over 100 reads as 100 (securities_controller_test)", async () => {
    const res = await api.get("/api/v1/securities?per_page=250", { apiKey: user.readKey });
    expect(res.status).toBe(200);
    const { securities, pagination } = SecurityCollectionSchema.parse(res.body);
    expect(pagination.per_page).toBe(100);
    // VTI's only trade was deleted above: it is no longer the family's.
    expect(securities.map((s) => s.ticker)).toEqual(["VOO"]);
    const stranger = await signUpUser(api, "stranger");
    const theirs = await api.get(`/api/v1/securities/${securities[0]!.id}`, { apiKey: stranger.readKey });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: "not_found", message: "Security not found" });
  });
});
