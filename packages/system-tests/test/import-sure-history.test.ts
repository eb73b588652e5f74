// A Sure export imported into Hearth keeps its holdings and balance history (issue 37, item 14).
// Through the gateway as a household moving from Sure does it: upload all.ndjson, publish, wait
// for the account syncs, then read balances and holdings day by day against the file's Balance
// and Holding records, again after a family sync, and nothing of it after a revert.
// Sure: data_importer.rb import_balances and import_holdings; data_importer_test.rb
// "imports raw balance history records", "imports holding snapshots with security identity".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BalanceCollectionSchema,
  HoldingCollectionSchema,
  ImportResponseSchema,
  SecurityCollectionSchema,
  SecurityPriceCollectionSchema,
  TradeCollectionSchema,
  ValuationCollectionSchema,
} from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, balanceLine, eventually, holdingLine, recordLine, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "sure-history");
});
afterAll(async () => system?.stop());

const DAYS = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"] as const;
const [D0, D1, D2, D3, D4] = DAYS;

/**
 * A brokerage Sure valued at 10,000 (its account balance) holding 40 VTI with a locked cost basis
 * and no trade for them, 10 AAPL bought on D1, a deposit on D2; and a checking account whose
 * recorded balances its one transaction does not explain on D0 and D3.
 */
const HOLDINGS = [
  ...DAYS.map((date, day) => ({
    ticker: "VTI",
    date,
    qty: "40.0",
    price: ["150.0", "152.0", "149.0", "155.0", "160.0"][day]!,
    amount: ["6000.0", "6080.0", "5960.0", "6200.0", "6400.0"][day]!,
    cost_basis: "120.0",
    cost_basis_locked: true,
  })),
  ...DAYS.slice(1).map((date, day) => ({
    ticker: "AAPL",
    date,
    qty: "10.0",
    price: ["100.0", "102.0", "101.0", "103.0"][day]!,
    amount: ["1000.0", "1020.0", "1010.0", "1030.0"][day]!,
    cost_basis: "100.0",
  })),
];
const BALANCES = {
  "acct-brokerage": [
    [D0, "9000.0", "3000.0"],
    [D1, "9080.0", "2000.0"],
    [D2, "9480.0", "2500.0"],
    [D3, "9710.0", "2500.0"],
    [D4, "9930.0", "2500.0"],
  ],
  "acct-checking": [
    [D0, "1200.0", "1200.0"],
    [D1, "1200.0", "1200.0"],
    [D2, "1150.0", "1150.0"],
    [D3, "900.0", "900.0"],
    [D4, "900.0", "900.0"],
  ],
} as const;

const FILE = [
  recordLine("Account", { id: "acct-brokerage", name: "Brokerage", balance: "10000.0", currency: "USD", accountable_type: "Investment" }),
  recordLine("Account", { id: "acct-checking", name: "Checking", balance: "900.0", currency: "USD", accountable_type: "Depository" }),
  ...Object.entries(BALANCES).flatMap(([account, days]) => days.map(([date, balance, cash]) => balanceLine(account, date, balance, cash))),
  recordLine("Transaction", { id: "txn-deposit", account_id: "acct-brokerage", date: D2, amount: "-500.0", currency: "USD", name: "Deposit" }),
  recordLine("Transaction", { id: "txn-groceries", account_id: "acct-checking", date: D2, amount: "50.0", currency: "USD", name: "Groceries" }),
  recordLine("Trade", { account_id: "acct-brokerage", ticker: "AAPL", date: D1, qty: "10.0", price: "100.0", amount: "1000.0", currency: "USD" }),
  ...HOLDINGS.map((holding) => holdingLine("acct-brokerage", holding)),
].join("\n");

const cents = (decimal: string) => Math.round(Number(decimal) * 100);
/** "$1,234.50" as a number. */
const money = (formatted: string | null) => (formatted === null ? null : Number(formatted.replace(/[$,]/g, "")));
const get = async (path: string) => {
  const res = await api.get(path, { apiKey: user.readKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** Every sync the family queued has ended (balances and holdings are current). */
async function settled(): Promise<void> {
  await eventually(async () => {
    const open = (await get("/api/v1/syncs?per_page=100")).data.filter((sync: { status: string }) => ["pending", "syncing"].includes(sync.status));
    expect(open).toEqual([]);
  });
}

async function accountIds(): Promise<Record<string, string>> {
  const accounts = (await get("/api/v1/accounts?per_page=100")).accounts as { id: string; name: string }[];
  return Object.fromEntries(accounts.map((account) => [account.name, account.id]));
}

/** The file's Balance and Holding records, each against the day Hearth answers for it. */
async function expectHistoryOfFile(): Promise<void> {
  const ids = await accountIds();
  const window = `start_date=${D0}&end_date=${D4}&per_page=100`;
  for (const [source, days] of Object.entries(BALANCES)) {
    const account = ids[source === "acct-brokerage" ? "Brokerage" : "Checking"]!;
    const { balances } = BalanceCollectionSchema.parse(await get(`/api/v1/balances?account_id=${account}&${window}`));
    const byDay = new Map(balances.map((balance) => [balance.date, balance]));
    for (const [date, balance, cash] of days) {
      expect({ date, ...byDay.get(date) }, `${source} on ${date}`).toMatchObject({ date, balance_cents: cents(balance), cash_balance_cents: cents(cash) });
    }
  }
  const { holdings } = HoldingCollectionSchema.parse(await get(`/api/v1/holdings?account_id=${ids["Brokerage"]}&${window}`));
  expect(holdings).toHaveLength(HOLDINGS.length);
  for (const record of HOLDINGS) {
    const held = holdings.find((holding) => holding.date === record.date && holding.security.ticker === record.ticker);
    expect(held, `${record.ticker} on ${record.date}`).toBeDefined();
    expect({ qty: Number(held!.qty), price: money(held!.price), amount_cents: held!.amount_cents, avg_cost: money(held!.avg_cost) }).toEqual({
      qty: Number(record.qty),
      price: Number(record.price),
      amount_cents: cents(record.amount),
      avg_cost: Number(record.cost_basis),
    });
  }
}

describe("SureImport of an export with balance history and holdings", () => {
  let importId: string;
  let result: unknown;

  beforeAll(async () => {
    const created = await api.post("/api/v1/imports", { type: "SureImport", raw_file_content: FILE, publish: "true" }, { apiKey: user.writeKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    importId = ImportResponseSchema.parse(created.body).data.id;
    const done = await eventually(async () => {
      const detail = ImportResponseSchema.parse(await get(`/api/v1/imports/${importId}`)).data;
      expect(["complete", "failed"]).toContain(detail.status);
      return detail;
    });
    expect(done.error ?? null).toBeNull();
    expect(done.status).toBe("complete");
    result = done.result;
    await settled();
  }, 60_000);

  it("answers the file's balances and holdings day by day once the account syncs ran: the 40 VTI at their cost basis, 9,000 on the first day", async () => {
    await expectHistoryOfFile();
  });

  it("writes a reconciliation only where the imported entries do not give the recorded balance, and an opening trade only for the position no trade explains", async () => {
    const ids = await accountIds();
    const valuations = async (name: string) =>
      ValuationCollectionSchema.parse(await get(`/api/v1/valuations?account_id=${ids[name]}&per_page=100`))
        .valuations.map((valuation) => [valuation.date, valuation.kind, valuation.amount_cents])
        .sort();
    expect(await valuations("Checking")).toEqual([
      ["2026-03-01", "opening_anchor", 90_000],
      [D0, "reconciliation", 120_000],
      [D3, "reconciliation", 90_000],
    ]);
    expect(await valuations("Brokerage")).toEqual([
      ["2026-03-01", "opening_anchor", 1_000_000],
      [D0, "reconciliation", 900_000],
    ]);
    // VTI's five prices, and AAPL's three after the day its trade prices it.
    expect(result).toMatchObject({ balance_reconciliations: 3, holding_trades: 1, holding_prices: 8, securities_created: 2 });
    const { trades } = TradeCollectionSchema.parse(await get(`/api/v1/trades?account_id=${ids["Brokerage"]}&per_page=100`));
    expect(trades.map((trade) => [trade.date, trade.security?.ticker, trade.qty, money(trade.price)]).sort()).toEqual([
      [D0, "VTI", "40.0", 120],
      [D1, "AAPL", "10.0", 100],
    ]);
  });

  it("keeps them through a later family sync, which derives every balance and holding again", async () => {
    const queued = await api.post("/api/v1/sync", {}, { apiKey: user.writeKey });
    expect([200, 201, 202]).toContain(queued.status);
    await settled();
    await expectHistoryOfFile();
  });

  it("a revert removes exactly what the import added: accounts, entries, trades, securities and their prices (Sure: Import#revert)", async () => {
    const reverted = await api.post(`/api/v1/imports/${importId}/revert`, {}, { apiKey: user.writeKey });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    await settled();
    expect(await accountIds()).toEqual({});
    expect(SecurityCollectionSchema.parse(await get("/api/v1/securities?per_page=100")).securities).toEqual([]);
    expect(SecurityPriceCollectionSchema.parse(await get("/api/v1/security_prices?per_page=100")).security_prices).toEqual([]);
    expect(HoldingCollectionSchema.parse(await get("/api/v1/holdings?per_page=100")).holdings).toEqual([]);
    expect(BalanceCollectionSchema.parse(await get("/api/v1/balances?per_page=100")).balances).toEqual([]);
  });
});
