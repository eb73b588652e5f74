// TradeImport and AccountImport published by the import worker through the real procedures
// (imports.create with publish, then imports.get until it is done), mirroring Sure's
// test/models/trade_import_test.rb and account_import_test.rb where they apply (cited per case).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, TradeSchema } from "@hearth/contracts";
import { todayIso, yearsBefore } from "../src/ledger/dates";
import { accountTypeNamed } from "../src/imports/publish/account-import-publisher";
import { createImportRepository } from "../src/imports/import-repository";
import { MAX_HOLDING_ROWS } from "../src/trades/trade-repository";
import { eventually, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;

function newFamily() {
  const actor = newActor();
  return { actor, call: financeAs(finance, actor) };
}

async function account(call: Call, name: string, accountType: string, balance = "100000") {
  return call("accounts.create", { account: { name, account_type: accountType, balance, opening_balance_date: "2026-01-01" } });
}

/** Uploads `csv` asking for a publish, then waits until the worker is done with it. */
async function imported(call: Call, type: "TradeImport" | "AccountImport", csv: string, params: Record<string, unknown> = {}) {
  const created = ImportResponseSchema.parse(
    await call("imports.create", { type, raw_file_content: csv, publish: true, date_format: "%Y-%m-%d", ...params }),
  ).data;
  expect(created.stats).toMatchObject({ invalid_rows_count: 0 });
  return eventually(async () => {
    const detail = ImportResponseSchema.parse(await call("imports.get", { id: created.id })).data;
    expect(["complete", "failed"]).toContain(detail.status);
    return detail;
  });
}

async function tradesOf(call: Call, accountId: string) {
  const { trades } = await call("trades.list", { account_id: accountId, per_page: 100 });
  return (trades as unknown[]).map((trade) => TradeSchema.parse(trade)).sort((a, b) => a.date.localeCompare(b.date));
}

const TRADES_CSV = [
  "date,ticker,qty,price,currency,account,name,exchange_operating_mic",
  "2026-03-02,AAPL,10,150.00,USD,Brokerage,Apple Purchase,",
  "2026-03-03,googl,5,2500.00,USD,brokerage,,XNAS",
  "2026-03-04,AAPL,-4,160.00,USD,Brokerage,,",
].join("\n");

describe("TradeImport", () => {
  it("writes trades with Sure's signed amounts and labels, our names, one offline security per ticker ('imports trades and accounts', 'auto-assigns investment activity labels')", async () => {
    const { actor, call } = newFamily();
    const brokerage = await account(call, "Brokerage", "investment");
    const done = await imported(call, "TradeImport", TRADES_CSV);
    expect(done.status, done.error ?? "").toBe("complete");
    expect(done.result).toEqual({ trades: 3, securities_created: 2, skipped_duplicates: 0 });
    expect(done.progress).toEqual({ rows_done: 3, rows_total: 3 });

    const trades = await tradesOf(call, brokerage.id);
    expect(trades.map((t) => [t.name, t.qty, t.amount_cents, t.investment_activity_label, t.security?.ticker])).toEqual([
      ["Apple Purchase", "10.0", 150000, "Buy", "AAPL"],
      ["Buy 5.0 shares of GOOGL", "5.0", 1250000, "Buy", "GOOGL"],
      ["Sell 4.0 shares of AAPL", "-4.0", -64000, "Sell", "AAPL"],
    ]);
    const entries = await finance.db.entry.findMany({ where: { accountId: brokerage.id, kind: "trade" } });
    expect(entries.every((entry) => entry.importId === done.id)).toBe(true);
    const securities = await finance.db.security.findMany({ where: { familyId: actor.familyId }, orderBy: { ticker: "asc" } });
    expect(securities.map((s) => [s.ticker, s.exchangeOperatingMic, s.offline])).toEqual([
      ["AAPL", null, true],
      ["GOOGL", "XNAS", true],
    ]);

    // Holdings follow from the queued sync.
    await settled(finance);
    const { holdings } = await call("holdings.list", { account_id: brokerage.id, date: "2026-03-04" });
    expect(holdings.map((h: { security: { ticker: string }; qty: string }) => [h.security.ticker, h.qty]).sort()).toEqual([
      ["AAPL", "6.0"],
      ["GOOGL", "5.0"],
    ]);
    const detail = await call("accounts.get", { id: brokerage.id });
    // Cash: 100,000 - 1,500 - 12,500 + 640.
    expect(detail.cash_balance_cents).toBe(10_000_000 - 150_000 - 1_250_000 + 64_000);
  });

  it("goes to the import's account, an existing security reused, qty signed per the convention (Import::Row#apply_trade_signage_convention)", async () => {
    const { actor, call } = newFamily();
    const brokerage = await account(call, "Brokerage", "crypto");
    await call("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-02-02", qty: 1, price: "100", ticker: "BTC" } });
    const csv = ["date,ticker,qty,price", "2026-03-02,btc,0.25,40000", "2026-03-03,BTC,-0.1,45000"].join("\n");
    const done = await imported(call, "TradeImport", csv, { account_id: brokerage.id, signage_convention: "inflows_negative" });
    expect(done.result).toEqual({ trades: 2, securities_created: 0, skipped_duplicates: 0 });
    const trades = await tradesOf(call, brokerage.id);
    expect(trades.slice(1).map((t) => [t.name, t.qty, t.amount_cents, t.investment_activity_label])).toEqual([
      ["Sell 0.25 shares of BTC", "-0.25", -1_000_000, "Sell"],
      ["Buy 0.1 shares of BTC", "0.1", 450_000, "Buy"],
    ]);
    expect(await finance.db.security.count({ where: { familyId: actor.familyId } })).toBe(1);
  });

  it("refuses an account that takes no trades: the import failed naming it, nothing written (Account#supports_trades?; Sure's test publishes onto a depository)", async () => {
    const { actor, call } = newFamily();
    const everyday = await account(call, "Everyday", "depository");
    const done = await imported(call, "TradeImport", TRADES_CSV.replaceAll("Brokerage", "Everyday").replaceAll("brokerage", "everyday"));
    expect(done.status).toBe("failed");
    expect(done.error).toBe('Trades go to investment or crypto accounts only, not "Everyday" (depository)');
    expect(done.result).toBeNull();
    const byId = await imported(call, "TradeImport", "date,ticker,qty,price\n2026-03-02,AAPL,1,10", { account_id: everyday.id });
    expect(byId.status).toBe("failed");
    expect(byId.error).toContain('"Everyday"');
    expect(await finance.db.entry.count({ where: { familyId: actor.familyId, kind: "trade" } })).toBe(0);
    expect(await finance.db.security.count({ where: { familyId: actor.familyId } })).toBe(0);
  });

  it("refuses to publish rows naming an account the family does not have until the name is mapped (Import::AccountMapping)", async () => {
    const { actor, call } = newFamily();
    await account(call, "Brokerage", "investment");
    const csv = TRADES_CSV.replace("2026-03-04,AAPL,-4,160.00,USD,Brokerage", "2026-03-04,AAPL,-4,160.00,USD,Nowhere");
    await expect(call("imports.create", { type: "TradeImport", raw_file_content: csv, publish: true, date_format: "%Y-%m-%d" })).rejects.toMatchObject({
      code: "not_publishable",
      message: expect.stringContaining('"Nowhere"'),
    });
    expect(await finance.db.entry.count({ where: { familyId: actor.familyId, kind: "trade" } })).toBe(0);
  });

  it("refuses trades that would give an account more daily holdings than the trades API allows (MAX_HOLDING_ROWS)", async () => {
    const { actor, call } = newFamily();
    await account(call, "Brokerage", "investment");
    // 24 securities held for 29 years: about 254,000 daily holdings.
    const day = yearsBefore(todayIso(), 29);
    const rows = Array.from({ length: 24 }, (_, i) => `${day},T${i},1,10,Brokerage`);
    const done = await imported(call, "TradeImport", ["date,ticker,qty,price,account", ...rows].join("\n"));
    expect(done.status).toBe("failed");
    expect(done.error).toBe(
      `An account holds at most ${MAX_HOLDING_ROWS.toLocaleString("en")} daily holdings (securities x days since each one's first trade): "Brokerage" would hold more`,
    );
    expect(await finance.db.entry.count({ where: { familyId: actor.familyId, kind: "trade" } })).toBe(0);
    expect(await finance.db.security.count({ where: { familyId: actor.familyId } })).toBe(0);
  });

  it("skips trades already in the account one for one: same day, security, quantity and price (Sure's TradeImport has no such check)", async () => {
    const { call } = newFamily();
    const brokerage = await account(call, "Brokerage", "investment");
    await imported(call, "TradeImport", TRADES_CSV);
    const again = await imported(call, "TradeImport", TRADES_CSV);
    expect(again.result).toEqual({ trades: 0, securities_created: 0, skipped_duplicates: 3 });
    const thrice = [
      "date,ticker,qty,price,account",
      ...Array.from({ length: 3 }, () => "2026-03-02,aapl,10,150,Brokerage"),
      "2026-03-02,AAPL,10,151,Brokerage",
    ];
    const more = await imported(call, "TradeImport", thrice.join("\n"));
    expect(more.result).toEqual({ trades: 3, securities_created: 0, skipped_duplicates: 1 });
    expect(await tradesOf(call, brokerage.id)).toHaveLength(6);
  });

  it("a revert removes exactly the import's trades, their holdings and the securities it made (Import#revert)", async () => {
    const { actor, call } = newFamily();
    const brokerage = await account(call, "Brokerage", "investment");
    const own = TradeSchema.parse(
      (await call("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-02-02", qty: 1, price: "100", ticker: "MSFT" } })).body,
    );
    const done = await imported(call, "TradeImport", TRADES_CSV);
    await settled(finance);
    const reverted = ImportResponseSchema.parse(await call("imports.revert", { id: done.id })).data;
    expect(reverted).toMatchObject({ status: "pending", result: null });
    expect((await tradesOf(call, brokerage.id)).map((t) => t.id)).toEqual([own.id]);
    await settled(finance);
    const { holdings } = await call("holdings.list", { account_id: brokerage.id, date: "2026-03-04" });
    expect(holdings.map((h: { security: { ticker: string } }) => h.security.ticker)).toEqual(["MSFT"]);
    // The securities it made go too (Sure keeps them: its revert destroys entries and accounts only); the family's own stays.
    expect((await finance.db.security.findMany({ where: { familyId: actor.familyId } })).map((s) => s.ticker)).toEqual(["MSFT"]);
  });
});

const ACCOUNTS_CSV = [
  "type,name,amount,currency,date",
  "Checking,Main Checking,1000.00,USD,2024-01-15",
  "depository,Savings Account,5000.00,USD,",
  "Credit Card,Rewards Card,-500.00,USD,2024-02-01",
  'Investment,Brokerage,"12,000.50",EUR,',
].join("\n");

describe("AccountImport", () => {
  it("creates accounts with opening-anchor valuations on the row's date or two years back ('import creates accounts with valuations', 'explicit balance dates', 'default dates')", async () => {
    const { actor, call } = newFamily();
    const done = await imported(call, "AccountImport", ACCOUNTS_CSV);
    expect(done.status, done.error ?? "").toBe("complete");
    expect(done.result).toEqual({ accounts: 4, skipped_duplicates: 0 });

    const accounts = await finance.db.account.findMany({ where: { familyId: actor.familyId }, orderBy: { name: "asc" } });
    expect(accounts.map((a) => [a.name, a.accountType, a.subtype, a.classification, a.currency, a.balanceCents, a.importId])).toEqual([
      ["Brokerage", "investment", null, "asset", "EUR", 1_200_050n, done.id],
      ["Main Checking", "depository", "checking", "asset", "USD", 100_000n, done.id],
      ["Rewards Card", "credit_card", null, "liability", "USD", -50_000n, done.id],
      ["Savings Account", "depository", null, "asset", "USD", 500_000n, done.id],
    ]);
    const valuations = await finance.db.entry.findMany({
      where: { familyId: actor.familyId },
      include: { account: true },
      orderBy: { account: { name: "asc" } },
    });
    const defaultDay = yearsBefore(todayIso(), 2);
    expect(valuations.map((v) => [v.account.name, v.kind, v.valuationKind, v.date.toISOString().slice(0, 10), v.amountCents, v.currency, v.importId])).toEqual([
      ["Brokerage", "valuation", "opening_anchor", defaultDay, 1_200_050n, "EUR", done.id],
      ["Main Checking", "valuation", "opening_anchor", "2024-01-15", 100_000n, "USD", done.id],
      ["Rewards Card", "valuation", "opening_anchor", "2024-02-01", -50_000n, "USD", done.id],
      ["Savings Account", "valuation", "opening_anchor", defaultDay, 500_000n, "USD", done.id],
    ]);

    await settled(finance);
    const checking = accounts.find((a) => a.name === "Main Checking")!;
    expect(await call("accounts.get", { id: checking.id })).toMatchObject({ balance_cents: 100_000, cash_balance_cents: 100_000 });
  });

  it("publishes at most 50 accounts however the publish is asked for: at upload, later, or already queued (AccountImport#max_row_count)", async () => {
    const { actor, call } = newFamily();
    const csv = ["type,name,amount,currency", ...Array.from({ length: 60 }, (_, i) => `Checking,Account ${i},1.00,USD`)].join("\n");
    await expect(call("imports.create", { type: "AccountImport", raw_file_content: csv, publish: true })).rejects.toMatchObject({
      code: "max_row_count_exceeded",
    });
    const uploaded = ImportResponseSchema.parse(await call("imports.create", { type: "AccountImport", raw_file_content: csv })).data;
    await expect(call("imports.publish", { id: uploaded.id })).rejects.toMatchObject({ code: "max_row_count_exceeded" });
    expect(await call("imports.get", { id: uploaded.id })).toMatchObject({ data: { status: "pending" } });

    // Queued by another way (as before this check, or by a stored import's publish): the job refuses it too.
    await createImportRepository(finance.db).requestPublish(actor.familyId, uploaded.id);
    const done = await eventually(async () => {
      const detail = ImportResponseSchema.parse(await call("imports.get", { id: uploaded.id })).data;
      expect(["complete", "failed"]).toContain(detail.status);
      return detail;
    });
    expect(done).toMatchObject({ status: "failed", error: "Import has too many rows to publish." });
    expect(await finance.db.account.count({ where: { familyId: actor.familyId } })).toBe(0);
  });

  it("skips a row named as an account the family has, or as an earlier row, counted as skipped duplicates", async () => {
    const { actor, call } = newFamily();
    await account(call, "main checking", "depository", "1");
    const csv = [ACCOUNTS_CSV, "Savings,SAVINGS ACCOUNT,1.00,USD,"].join("\n");
    const done = await imported(call, "AccountImport", csv);
    expect(done.result).toEqual({ accounts: 3, skipped_duplicates: 2 });
    const names = (await finance.db.account.findMany({ where: { familyId: actor.familyId } })).map((a) => a.name).sort();
    expect(names).toEqual(["Brokerage", "Rewards Card", "Savings Account", "main checking"]);
  });

  it("refuses account types it cannot read, naming them; nothing written (Import::AccountTypeMapping must map every value)", async () => {
    const { actor, call } = newFamily();
    const csv = [ACCOUNTS_CSV, "Bogus,Odd One,1.00,USD,", "Piggy Bank,Odd Two,1.00,USD,"].join("\n");
    const done = await imported(call, "AccountImport", csv);
    expect(done.status).toBe("failed");
    expect(done.error).toMatch(/^Unknown account types "Bogus", "Piggy Bank": use one of Depository, /);
    const blank = await imported(call, "AccountImport", "name,amount\nNo Type,1.00");
    expect(blank.error).toMatch(/^Rows without an account type/);
    expect(await finance.db.account.count({ where: { familyId: actor.familyId } })).toBe(0);
  });

  it("a revert removes exactly the accounts it created, their valuations with them (Import#revert: accounts.destroy_all)", async () => {
    const { actor, call } = newFamily();
    const kept = await account(call, "Kept", "depository");
    const done = await imported(call, "AccountImport", ACCOUNTS_CSV);
    await settled(finance);
    const reverted = ImportResponseSchema.parse(await call("imports.revert", { id: done.id })).data;
    expect(reverted.status).toBe("pending");
    const left = await finance.db.account.findMany({ where: { familyId: actor.familyId } });
    expect(left.map((a) => a.id)).toEqual([kept.id]);
    expect(await finance.db.entry.count({ where: { familyId: actor.familyId } })).toBe(1);
  });

  it("reads a type as Sure's class, its title, Hearth's type, a group label or a subtype", () => {
    expect(["CreditCard", "Credit Card", "credit_card", "Credit Cards"].map(accountTypeNamed)).toEqual(
      Array(4).fill({ accountType: "credit_card", subtype: null }),
    );
    expect(accountTypeNamed("OtherLiability")).toEqual({ accountType: "other_liability", subtype: null });
    expect(accountTypeNamed("Bank Account")).toEqual({ accountType: "depository", subtype: null });
    expect(accountTypeNamed(" roth ira ")).toEqual({ accountType: "investment", subtype: "roth_ira" });
    expect(accountTypeNamed("401(k)")).toEqual({ accountType: "investment", subtype: "401k" });
    expect(accountTypeNamed("Student Loan")).toEqual({ accountType: "loan", subtype: "student" });
    expect(accountTypeNamed("Investment Property")).toEqual({ accountType: "property", subtype: "investment_property" });
    expect(accountTypeNamed("HSA")).toEqual({ accountType: "depository", subtype: "hsa" });
    expect(accountTypeNamed("")).toBeNull();
    expect(accountTypeNamed("Piggy Bank")).toBeNull();
  });
});
