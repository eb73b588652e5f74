// Trades through the finance service's procedures, mirroring Sure's trades_controller_test.rb
// and trade_test.rb where they apply (cited per case), and the investment balances they move.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TradeSchema, TransactionSchema, TransferSchema } from "@hearth/contracts";
import { MAX_HOLDING_ROWS, createTradeRepository } from "../src/trades/trade-repository";
import { expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

type Call = ReturnType<typeof financeAs>;
const newFamily = () => financeAs(finance, newActor());

async function brokerage(call: Call, balance = "10000") {
  return call("accounts.create", { account: { name: "Brokerage", account_type: "investment", balance, opening_balance_date: "2026-01-01" } });
}
const buy = (accountId: string, extra: Record<string, unknown> = {}) => ({
  trade: { account_id: accountId, type: "buy", date: "2026-03-02", qty: 10, price: "100", ticker: "AAPL", ...extra },
});

describe("creating trades", () => {
  it("a buy: Sure's name, label, signed amount with its fee, an offline security on the fly (trade_test.rb 'Buy 10.0 shares of AAPL')", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const created = await call("trades.create", buy(account.id, { fee: "5" }));
    expect(created.status).toBe(201);
    const trade = TradeSchema.parse(created.body);
    expect(trade).toMatchObject({
      name: "Buy 10.0 shares of AAPL",
      investment_activity_label: "Buy",
      qty: "10.0",
      price: "$100.00",
      amount: "$1,005.00",
      amount_cents: 100500,
      currency: "USD",
      date: "2026-03-02",
      account: { id: account.id, name: "Brokerage", account_type: "investment", status: "active" },
      security: { ticker: "AAPL", name: null },
      category: null,
    });
    const security = await finance.db.security.findUniqueOrThrow({ where: { id: trade.security!.id } });
    expect(security).toMatchObject({ offline: true, kind: "standard", ticker: "AAPL" });
  });

  it("a sell is stored with a negative quantity and a negative amount (cash in) plus its fee", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const sold = TradeSchema.parse((await call("trades.create", buy(account.id, { type: "sell", qty: "2.5", price: "40.10", fee: "1" }))).body);
    expect(sold).toMatchObject({ name: "Sell 2.5 shares of AAPL", qty: "-2.5", amount_cents: -10025 + 100, investment_activity_label: "Sell" });
  });

  it("a dividend and interest are cash-only trades (qty 0); interest without a ticker goes to the account's cash security", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const dividend = TradeSchema.parse(
      (await call("trades.create", { trade: { account_id: account.id, type: "dividend", date: "2026-03-03", amount: 25.5, ticker: "AAPL|XNAS" } })).body,
    );
    expect(dividend).toMatchObject({ name: "Dividend: AAPL", investment_activity_label: "Dividend", qty: "0.0", amount_cents: -2550 });
    const interest = TradeSchema.parse(
      (await call("trades.create", { trade: { account_id: account.id, type: "interest", date: "2026-03-03", amount: "25" } })).body,
    );
    expect(interest).toMatchObject({ name: "Interest", investment_activity_label: "Interest", qty: "0.0", amount_cents: -2500 });
    expect(interest.security?.ticker).toBe(`CASH-${account.id}`.toUpperCase());
    const cash = await finance.db.security.findUniqueOrThrow({ where: { id: interest.security!.id } });
    expect(cash).toMatchObject({ kind: "cash", name: "Cash", offline: true });
  });

  it("a deposit or withdrawal is a transaction, or a transfer when it names the other account (trades_controller_test deposit/withdrawal)", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const checking = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 5000 } });
    const deposit = TransactionSchema.parse(
      (await call("trades.create", { trade: { account_id: account.id, type: "deposit", date: "2026-03-04", amount: "175.25" } })).body,
    );
    expect(deposit).toMatchObject({ name: "Deposit to Brokerage", classification: "income", signed_amount_cents: 17525 });
    const withdrawal = TransactionSchema.parse(
      (await call("trades.create", { trade: { account_id: account.id, type: "withdrawal", date: "2026-03-04", amount: 100 } })).body,
    );
    expect(withdrawal.name).toBe("Withdrawal from Brokerage");
    const linked = TransferSchema.parse(
      (
        await call("trades.create", {
          trade: { account_id: account.id, type: "withdrawal", date: "2026-03-05", amount: 500, transfer_account_id: checking.id },
        })
      ).body,
    );
    expect(linked.outflow_transaction.account.id).toBe(account.id);
    expect(linked.inflow_transaction.account.id).toBe(checking.id);
    const contribution = TransferSchema.parse(
      (await call("trades.create", { trade: { account_id: account.id, type: "deposit", date: "2026-03-05", amount: 500, transfer_account_id: checking.id } }))
        .body,
    );
    expect(contribution.inflow_transaction.account.id).toBe(account.id);
    expect(contribution.outflow_transaction.account.id).toBe(checking.id);
  });

  it("refuses what Sure refuses, naming the field, and writes nothing", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const checking = await call("accounts.create", { account: { name: "Checking", account_type: "depository" } });
    const refused = async (trade: Record<string, unknown>, code: "validation_failed" | "record_not_found", text?: string) => {
      const error = await expectAppError(call("trades.create", { trade }), code);
      if (text) expect(`${error.message} ${JSON.stringify(error.errors)}`.toLowerCase()).toContain(text.toLowerCase());
    };
    await refused(buy(checking.id).trade, "validation_failed", "Account does not support trades (investment or crypto exchange only)");
    await refused({ ...buy(account.id).trade, qty: 0 }, "validation_failed", "qty");
    await refused({ ...buy(account.id).trade, price: "-1" }, "validation_failed", "price");
    await refused({ ...buy(account.id).trade, type: "invalid" }, "validation_failed", "type must be");
    await refused({ ...buy(account.id).trade, currency: "ZZZ" }, "validation_failed", "Currency");
    await refused({ ...buy(account.id).trade, date: "1969-12-31" }, "validation_failed", "date");
    await refused({ ...buy(account.id).trade, date: "invalid-date" }, "validation_failed", "date");
    await refused({ ...buy(account.id).trade, ticker: undefined }, "validation_failed", "Provide security_id, ticker, or manual_ticker");
    await refused({ account_id: account.id, type: "dividend", date: "2026-03-03", ticker: "AAPL" }, "validation_failed", "amount must be present for dividend");
    await refused({ account_id: account.id, type: "deposit", date: "2026-03-03" }, "validation_failed", "amount must be present for deposit/withdrawal");
    await refused({ account_id: account.id, type: "interest", date: "2026-03-03", amount: 0 }, "validation_failed", "Amount must be a valid number");
    await refused({ ...buy(account.id).trade, investment_activity_label: "Nope" }, "validation_failed", "investment_activity_label must be one of");
    expect(await finance.db.trade.count({ where: { entry: { accountId: account.id } } })).toBe(0);
  });

  it("another family's account, security and category are not found (404 Account/Security not found; 422 for the category)", async () => {
    const alice = newFamily();
    const bob = newFamily();
    const aliceAccount = await brokerage(alice);
    const aliceTrade = TradeSchema.parse((await alice("trades.create", buy(aliceAccount.id))).body);
    const bobAccount = await brokerage(bob);
    const aliceCategory = (await alice("categories.list", {})).categories[0];
    await expectAppError(bob("trades.create", buy(aliceAccount.id)), "record_not_found");
    const unknownSecurity = await expectAppError(
      bob("trades.create", buy(bobAccount.id, { ticker: undefined, security_id: aliceTrade.security!.id })),
      "record_not_found",
    );
    expect(unknownSecurity.message).toBe("Security not found");
    await expectAppError(bob("trades.create", buy(bobAccount.id, { category_id: aliceCategory.id })), "validation_failed");
    // The same ticker in Bob's family is Bob's own security.
    const bobTrade = TradeSchema.parse((await bob("trades.create", buy(bobAccount.id))).body);
    expect(bobTrade.security!.id).not.toBe(aliceTrade.security!.id);
    await expectAppError(bob("trades.get", { id: aliceTrade.id }), "record_not_found");
    await expectAppError(bob("trades.update", { id: aliceTrade.id, trade: { notes: "mine" } }), "record_not_found");
    await expectAppError(bob("trades.delete", { id: aliceTrade.id }), "record_not_found");
    expect((await bob("trades.list", {})).trades.map((t: { id: string }) => t.id)).toEqual([bobTrade.id]);
  });
});

describe("listing, updating and deleting trades", () => {
  it("lists newest first with account and date filters, paginated", async () => {
    const call = newFamily();
    const one = await brokerage(call);
    const two = await call("accounts.create", { account: { name: "Crypto", account_type: "crypto" } });
    const older = (await call("trades.create", buy(one.id, { date: "2026-02-01" }))).body;
    const newer = (await call("trades.create", buy(one.id, { date: "2026-04-01" }))).body;
    const other = (await call("trades.create", buy(two.id, { date: "2026-03-01", ticker: "BTC", qty: "0.5" }))).body;
    const ids = (query: Record<string, unknown>) => call("trades.list", query).then((r: { trades: { id: string }[] }) => r.trades.map((t) => t.id));
    expect(await ids({})).toEqual([newer.id, other.id, older.id]);
    expect(await ids({ account_id: one.id })).toEqual([newer.id, older.id]);
    expect(await ids({ account_ids: [two.id] })).toEqual([other.id]);
    expect(await ids({ start_date: "2026-02-15", end_date: "2026-03-31" })).toEqual([other.id]);
    const page = await call("trades.list", { per_page: 2, page: 2 });
    expect(page.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
    await expectAppError(call("trades.list", { start_date: "invalid" }), "validation_failed");
  });

  it("a new qty or price recomputes the amount (with the fee) and the name; other fields change alone (spec rule 1)", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const trade = TradeSchema.parse((await call("trades.create", buy(account.id, { fee: "5" }))).body);
    const updated = TradeSchema.parse(await call("trades.update", { id: trade.id, trade: { qty: "12", price: 101.5 } }));
    expect(updated).toMatchObject({
      qty: "12.0",
      price: "$101.50",
      amount_cents: 121800 + 500,
      name: "Buy 12.0 shares of AAPL",
      investment_activity_label: "Buy",
    });
    const asSell = TradeSchema.parse(await call("trades.update", { id: trade.id, trade: { qty: "3", type: "sell" } }));
    expect(asSell).toMatchObject({ qty: "-3.0", amount_cents: -30450 + 500, name: "Sell 3.0 shares of AAPL" });
    const noted = TradeSchema.parse(
      await call("trades.update", { id: trade.id, trade: { notes: "Updated notes", date: "2026-02-20", investment_activity_label: "Reinvestment" } }),
    );
    expect(noted).toMatchObject({ notes: "Updated notes", date: "2026-02-20", investment_activity_label: "Reinvestment", amount_cents: asSell.amount_cents });
    await expectAppError(call("trades.update", { id: trade.id, trade: { date: "invalid" } }), "validation_failed");
    await expectAppError(call("trades.update", { id: trade.id, trade: { qty: 0 } }), "validation_failed");
    const dividend = (await call("trades.create", { trade: { account_id: account.id, type: "dividend", date: "2026-03-03", amount: 10, ticker: "AAPL" } }))
      .body;
    expect((await call("trades.update", { id: dividend.id, trade: { notes: "Updated dividend notes" } })).notes).toBe("Updated dividend notes");
    await expectAppError(call("trades.update", { id: dividend.id, trade: { qty: 3 } }), "validation_failed");
  });

  it("delete answers Sure's message and the trade is gone", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const trade = (await call("trades.create", buy(account.id))).body;
    expect(await call("trades.delete", { id: trade.id })).toEqual({ message: "Trade deleted successfully" });
    await expectAppError(call("trades.get", { id: trade.id }), "record_not_found");
  });
});

describe("investment balances and holdings", () => {
  it("a buy moves cash into holdings: balance = cash + holdings value, the fee a market loss", async () => {
    const call = newFamily();
    const account = await brokerage(call, "10000");
    await call("trades.create", buy(account.id, { fee: "5" }));
    await settled(finance);
    const detail = await call("accounts.get", { id: account.id });
    expect(detail).toMatchObject({ balance_cents: 999500, cash_balance_cents: 899500 });
    const holdings = await call("holdings.list", { account_id: account.id, date: "2026-03-02" });
    expect(holdings.holdings).toHaveLength(1);
    expect(holdings.holdings[0]).toMatchObject({
      qty: "10.0",
      price: "$100.00",
      amount: "$1,000.00",
      amount_cents: 100000,
      avg_cost: "$100.00",
      cost_basis_source: "calculated",
    });
    const day = (await call("balances.list", { account_id: account.id, start_date: "2026-03-02", end_date: "2026-03-02" })).balances[0];
    expect(day).toMatchObject({ end_cash_balance_cents: 899500, end_non_cash_balance_cents: 100000, net_market_flows_cents: -500 });
  });

  it("dividends are cash only; holdings keep their value", async () => {
    const call = newFamily();
    const account = await brokerage(call, "10000");
    await call("trades.create", buy(account.id));
    await call("trades.create", { trade: { account_id: account.id, type: "dividend", date: "2026-03-03", amount: "25.50", ticker: "AAPL" } });
    await settled(finance);
    expect(await call("accounts.get", { id: account.id })).toMatchObject({ balance_cents: 1002550, cash_balance_cents: 902550 });
  });

  it("prices in another currency are converted at the rate of their own day (Sure's portfolio_cache_test: 100 USD at 0.80 is 80.0 CHF)", async () => {
    const call = newFamily();
    const account = await call("accounts.create", {
      account: { name: "Swiss brokerage", account_type: "investment", currency: "CHF", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("exchangeRates.upsert", { from: "USD", to: "CHF", date: "2026-03-01", rate: "0.80" });
    await call("exchangeRates.upsert", { from: "USD", to: "CHF", date: "2026-03-10", rate: "0.95" });
    await call("trades.create", buy(account.id, { qty: 1, price: 100, currency: "USD" }));
    await settled(finance);
    const onTradeDay = (await call("holdings.list", { account_id: account.id, date: "2026-03-02" })).holdings[0];
    expect(onTradeDay).toMatchObject({ amount_cents: 8000, currency: "CHF" });
    expect(onTradeDay.price).toMatch(/^CHF\s80\.00$/u);
    // Days without a price of their own keep the last value (Sure's Holding.gapfill copies the previous row).
    expect((await call("holdings.list", { account_id: account.id, date: "2026-03-10" })).holdings[0]).toMatchObject({ amount_cents: 8000 });
    // A stored price is converted at its own day's rate.
    await call("securityPrices.record", { security_price: { ticker: "AAPL", date: "2026-03-10", price: "100", currency: "USD" } });
    await settled(finance);
    expect((await call("holdings.list", { account_id: account.id, date: "2026-03-10" })).holdings[0]).toMatchObject({ amount_cents: 9500 });
  });

  it("a rate recorded later revalues holdings priced in that currency, trades in the account's own currency included", async () => {
    const call = newFamily();
    const account = await call("accounts.create", {
      account: { name: "Swiss brokerage", account_type: "investment", currency: "CHF", balance: "1000", opening_balance_date: "2026-01-01" },
    });
    await call("exchangeRates.upsert", { from: "USD", to: "CHF", date: "2026-03-01", rate: "0.80" });
    // The trade is in CHF, so no entry of the account is in USD; only the security's prices are.
    await call("trades.create", buy(account.id, { qty: 1, price: 80, currency: "CHF" }));
    await call("securityPrices.record", { security_price: { ticker: "AAPL", date: "2026-03-05", price: "100", currency: "USD" } });
    await settled(finance);
    expect((await call("holdings.list", { account_id: account.id, date: "2026-03-06" })).holdings[0]).toMatchObject({ amount_cents: 8000 });
    await call("exchangeRates.upsert", { from: "USD", to: "CHF", date: "2026-03-06", rate: "0.90" });
    await settled(finance);
    expect((await call("holdings.list", { account_id: account.id, date: "2026-03-06" })).holdings[0]).toMatchObject({ amount_cents: 9000 });
    expect((await call("holdings.list", { account_id: account.id, date: "2026-03-05" })).holdings[0]).toMatchObject({ amount_cents: 8000 });
  });

  it("deleting the latest, future-dated trade syncs (was a failed sync: its window started after the last day)", async () => {
    const call = newFamily();
    const account = await brokerage(call, "10000");
    const future = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    await call("trades.create", buy(account.id));
    const later = (await call("trades.create", buy(account.id, { date: future, qty: 2, price: 50 }))).body;
    await settled(finance);
    await call("trades.delete", { id: later.id });
    await settled(finance);
    expect(await finance.db.sync.count({ where: { syncableId: account.id, status: "failed" } })).toBe(0);
    const last = await finance.db.balance.findFirstOrThrow({ where: { accountId: account.id }, orderBy: { date: "desc" } });
    expect(last.date.toISOString().slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(await call("accounts.get", { id: account.id })).toMatchObject({ balance_cents: Number(last.endCashCents + last.endNonCashCents) });
  });

  it("deleting the trade removes its holdings and gives the cash back", async () => {
    const call = newFamily();
    const account = await brokerage(call, "10000");
    const trade = (await call("trades.create", buy(account.id))).body;
    await settled(finance);
    await call("trades.delete", { id: trade.id });
    await settled(finance);
    expect(await call("accounts.get", { id: account.id })).toMatchObject({ balance_cents: 1000000, cash_balance_cents: 1000000 });
    expect((await call("holdings.list", { account_id: account.id })).holdings).toEqual([]);
  });
});

describe("limits and races (found by review)", () => {
  it("refuses a price beyond its column and an amount beyond an entry's bound, writing nothing (was a 500 and an unlistable trade)", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    await expectAppError(call("trades.create", buy(account.id, { price: "1234567890" })), "validation_failed");
    await expectAppError(call("trades.create", buy(account.id, { qty: "100000000", price: "1000000" })), "validation_failed");
    await expectAppError(call("trades.create", buy(account.id, { qty: "1000000000000" })), "validation_failed");
    expect((await call("trades.list", {})).trades).toEqual([]);
    const trade = (await call("trades.create", buy(account.id))).body;
    await expectAppError(call("trades.update", { id: trade.id, trade: { qty: "100000000", price: "1000000" } }), "validation_failed");
    expect((await call("trades.get", { id: trade.id })).amount_cents).toBe(100000);
  });

  it("parallel edits of one trade both land (was a lost update), parallel deletes answer 200 once and 404 otherwise (was a 500)", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    for (let round = 0; round < 4; round++) {
      const trade = (await call("trades.create", buy(account.id, { qty: 1, price: 10 }))).body;
      await Promise.all([call("trades.update", { id: trade.id, trade: { price: "20" } }), call("trades.update", { id: trade.id, trade: { qty: "3" } })]);
      expect(await call("trades.get", { id: trade.id })).toMatchObject({ qty: "3.0", price: "$20.00", amount_cents: 6000 });
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => call("trades.delete", { id: trade.id })));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      for (const outcome of outcomes.filter((o) => o.status === "rejected")) expect((outcome as PromiseRejectedResult).reason.code).toBe("record_not_found");
    }
  });

  it("a deposit naming its own account as the other side is refused (was a transfer from an account to itself)", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const error = await expectAppError(
      call("trades.create", { trade: { account_id: account.id, type: "deposit", date: "2026-03-05", amount: 500, transfer_account_id: account.id } }),
      "validation_failed",
    );
    expect(error.message).toBe("Source and destination accounts must differ");
  });

  it("refuses a trade that would give the account more daily holdings than its limit (was unbounded rows and syncs)", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await brokerage(call);
    // The repository with a small limit: the default (250,000 rows) is minutes of syncs to reach.
    const trades = createTradeRepository(finance.db, { maxHoldingRows: 1000 });
    const newTrade = (date: string, ticker: string) => ({ ...buy(account.id).trade, type: "buy" as const, qty: "1", price: "10", date, ticker });
    await trades.create(actor.familyId, newTrade(isoDaysAgo(500), "FIRST"));
    const error = await expectAppError(trades.create(actor.familyId, newTrade(isoDaysAgo(600), "SECOND")), "validation_failed");
    expect(error.message).toContain("at most 1,000 daily holdings");
    expect(await finance.db.trade.count({ where: { entry: { accountId: account.id } } })).toBe(1);
    expect(MAX_HOLDING_ROWS).toBe(250_000);
  });

  it("stores holdings up to today only, while a future-dated trade still counts in the balance on its day", async () => {
    const call = newFamily();
    const account = await brokerage(call);
    const future = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    await call("trades.create", buy(account.id, { date: "2026-03-02" }));
    await call("trades.create", buy(account.id, { date: future, ticker: "LATER", qty: 2, price: 50 }));
    await settled(finance);
    const listed = (query: Record<string, string>) => call("holdings.list", { account_id: account.id, page: 1, per_page: 100, ...query });
    expect((await listed({ start_date: today })).holdings.map((row: { date: string }) => row.date)).toEqual([today]);
    expect((await listed({ start_date: future })).pagination.total_count).toBe(0);
    const onFutureDay = (await call("balances.list", { account_id: account.id, start_date: future, end_date: future })).balances[0];
    expect(onFutureDay).toMatchObject({ end_non_cash_balance_cents: 100000 + 10000 });
  });
});
