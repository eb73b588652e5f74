import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountDetailSchema, BalanceSchema, TransactionSchema, ValuationSchema } from "@hearth/contracts";
import { expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const newFamily = () => financeAs(finance, newActor());

describe("accounts", () => {
  it("are created with an opening balance that anchors their history, in Sure's AccountDetail shape", async () => {
    const call = newFamily();
    const checking = AccountDetailSchema.parse(
      await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: "1000.50", opening_balance_date: "2026-01-01" } }),
    );
    expect(checking).toMatchObject({ classification: "asset", currency: "USD", status: "active", balance: "$1,000.50", balance_cents: 100050 });
    const card = AccountDetailSchema.parse(
      await call("accounts.create", { account: { name: "Card", account_type: "credit_card", currency: "eur", balance: 250 } }),
    );
    expect(card).toMatchObject({ classification: "liability", currency: "EUR", balance_cents: 25000 });

    await settled(finance);
    const listed = await call("accounts.list", {});
    expect(listed.accounts.map((a: { name: string }) => a.name)).toEqual(["Card", "Checking"]);
    expect(listed.pagination).toEqual({ page: 1, per_page: 25, total_count: 2, total_pages: 1 });
    expect((await call("valuations.list", { account_id: checking.id })).valuations[0]).toMatchObject({
      kind: "opening_anchor",
      date: "2026-01-01",
      amount_cents: 100050,
    });
  });

  it("hide when disabled unless asked, refuse amounts finer than the currency, and are another family's 404", async () => {
    const call = newFamily();
    const account = await call("accounts.create", { account: { name: "Savings", account_type: "depository" } });
    await call("accounts.update", { id: account.id, account: { status: "disabled", name: "Old savings" } });
    expect((await call("accounts.list", {})).accounts).toEqual([]);
    expect((await call("accounts.list", { include_disabled: "true" })).accounts[0]).toMatchObject({ name: "Old savings", status: "disabled" });
    await expectAppError(call("accounts.get", { id: account.id }), "record_not_found");
    expect((await call("accounts.get", { id: account.id, include_disabled: true })).status).toBe("disabled");

    await expectAppError(
      call("accounts.create", { account: { name: "Yen", account_type: "depository", currency: "JPY", balance: "10.5" } }),
      "validation_failed",
    );
    await expectAppError(newFamily()("accounts.get", { id: account.id }), "record_not_found");
    await expectAppError(newFamily()("accounts.delete", { id: account.id }), "record_not_found");
  });

  it("are removed in the background after DELETE, with everything they hold", async () => {
    const call = newFamily();
    const account = await call("accounts.create", { account: { name: "Closing", account_type: "depository", balance: 10 } });
    const txn = await call("transactions.create", { transaction: { account_id: account.id, date: "2026-02-01", amount: 5, name: "Coffee" } });
    expect(await call("accounts.delete", { id: account.id })).toEqual({ message: "Account scheduled for deletion" });
    await expectAppError(call("transactions.get", { id: txn.body.id }), "record_not_found");
    await settled(finance);
    expect(await finance.db.account.count({ where: { id: account.id } })).toBe(0);
    expect(await finance.db.entry.count({ where: { accountId: account.id } })).toBe(0);
    expect(await finance.db.balance.count({ where: { accountId: account.id } })).toBe(0);
  });
});

describe("transactions", () => {
  it("take their sign from nature, replay on external_id + source with 200, and move the balance in the background", async () => {
    const call = newFamily();
    const account = await call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: "100", opening_balance_date: "2026-01-01" },
    });
    const salary = await call("transactions.create", {
      transaction: { account_id: account.id, date: "2026-01-05", amount: "2000", name: "Salary", nature: "income" },
    });
    expect(salary.status).toBe(201);
    expect(TransactionSchema.parse(salary.body)).toMatchObject({
      amount: "-$2,000.00",
      amount_cents: 200000,
      signed_amount_cents: 200000,
      classification: "income",
      transfer: null,
    });
    const rent = await call("transactions.create", {
      transaction: { account_id: account.id, date: "2026-01-06", amount: -800, description: "Rent", nature: "expense", external_id: "bank-1" },
    });
    expect(rent.body).toMatchObject({
      name: "Rent",
      amount_cents: 80000,
      signed_amount_cents: -80000,
      classification: "expense",
      external_id: "bank-1",
      source: "api",
    });
    const replay = await call("transactions.create", {
      transaction: { account_id: account.id, date: "2026-01-06", amount: -800, name: "Rent", external_id: "bank-1" },
    });
    expect(replay).toMatchObject({ status: 200, body: { id: rent.body.id } });
    // The same external id from another source is another transaction.
    expect(
      (
        await call("transactions.create", {
          transaction: { account_id: account.id, date: "2026-01-06", amount: 1, name: "x", external_id: "bank-1", source: "csv" },
        })
      ).status,
    ).toBe(201);
    await expectAppError(
      call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-06", amount: 1, name: "x", source: "csv" } }),
      "validation_failed",
    );

    await settled(finance);
    // 100 + 2000 - 800 - 1
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(129900);
    const day = BalanceSchema.parse((await call("balances.list", { account_id: account.id, start_date: "2026-01-05", end_date: "2026-01-05" })).balances[0]);
    expect(day).toMatchObject({ start_balance_cents: 10000, cash_inflows_cents: 200000, cash_outflows_cents: 0, end_balance_cents: 210000, flows_factor: 1 });
  });

  it("filter by account, category, merchant, tags, dates, amounts, type and search, and paginate", async () => {
    const call = newFamily();
    const a = await call("accounts.create", { account: { name: "A", account_type: "depository" } });
    const b = await call("accounts.create", { account: { name: "B", account_type: "credit_card" } });
    const food = await call("categories.create", { category: { name: "Food" } });
    const shop = await call("merchants.create", { merchant: { name: "Corner Shop" } });
    const tag = await call("tags.create", { tag: { name: "Holiday" } });
    await call("transactions.create", {
      transaction: { account_id: a.id, date: "2026-03-01", amount: 12.5, name: "Lunch", category_id: food.id, merchant_id: shop.id, tag_ids: [tag.id] },
    });
    await call("transactions.create", {
      transaction: { account_id: a.id, date: "2026-03-02", amount: 3000, name: "Pay", nature: "income", notes: "March pay" },
    });
    await call("transactions.create", { transaction: { account_id: b.id, date: "2026-03-03", amount: 40, name: "Fuel" } });
    const names = async (query: object) => (await call("transactions.list", query)).transactions.map((t: { name: string }) => t.name);

    expect(await names({})).toEqual(["Fuel", "Pay", "Lunch"]);
    expect(await names({ account_id: b.id })).toEqual(["Fuel"]);
    expect(await names({ account_ids: [a.id, b.id] })).toHaveLength(3);
    expect(await names({ category_id: food.id })).toEqual(["Lunch"]);
    expect(await names({ merchant_ids: shop.id })).toEqual(["Lunch"]);
    expect(await names({ tag_ids: [tag.id] })).toEqual(["Lunch"]);
    expect(await names({ start_date: "2026-03-02", end_date: "2026-03-02" })).toEqual(["Pay"]);
    expect(await names({ min_amount: "12.5", max_amount: 40 })).toEqual(["Fuel", "Lunch"]);
    expect(await names({ min_amount: "12.51" })).toEqual(["Fuel"]);
    expect(await names({ type: "income" })).toEqual(["Pay"]);
    expect(await names({ type: "expense" })).toEqual(["Fuel", "Lunch"]);
    expect(await names({ search: "corner" })).toEqual(["Lunch"]);
    expect(await names({ search: "march" })).toEqual(["Pay"]);
    const page = await call("transactions.list", { per_page: 2, page: 2 });
    expect(page.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
    expect(page.transactions.map((t: { name: string }) => t.name)).toEqual(["Lunch"]);
    const lunch = (await call("transactions.list", { category_id: food.id })).transactions[0];
    expect(lunch).toMatchObject({
      category: { id: food.id, name: "Food" },
      merchant: { id: shop.id, name: "Corner Shop" },
      tags: [{ id: tag.id, name: "Holiday" }],
    });

    // Another family's category, merchant or tag cannot be attached; its lists stay empty.
    const other = newFamily();
    const theirs = await other("accounts.create", { account: { name: "Theirs", account_type: "depository" } });
    await expectAppError(
      other("transactions.create", { transaction: { account_id: theirs.id, date: "2026-03-01", amount: 1, name: "x", category_id: food.id } }),
      "validation_failed",
    );
    await expectAppError(other("transactions.create", { transaction: { account_id: a.id, date: "2026-03-01", amount: 1, name: "x" } }), "record_not_found");
    expect((await other("transactions.list", {})).transactions).toEqual([]);
  });

  it("keep totals right across every change that moves an entry in or out of a filter (totals are cached per ledger version)", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "A", account_type: "depository" } });
    const food = await call("categories.create", { category: { name: "Groceries & more" } });
    const shop = await call("merchants.create", { merchant: { name: "Old name" } });
    const tag = await call("tags.create", { tag: { name: "T" } });
    const total = async (query: object) => (await call("transactions.list", query)).pagination.total_count;
    const make = () =>
      call("transactions.create", {
        transaction: { account_id: account.id, date: "2026-05-01", amount: 1, name: "x", category_id: food.id, merchant_id: shop.id, tag_ids: [tag.id] },
      });
    await make();
    expect([await total({}), await total({ category_id: food.id }), await total({ search: "old" }), await total({ tag_ids: [tag.id] })]).toEqual([1, 1, 1, 1]);
    await make();
    expect(await total({})).toBe(2);
    await call("merchants.update", { id: shop.id, merchant: { name: "New name" } });
    expect([await total({ search: "old" }), await total({ search: "new" })]).toEqual([0, 2]);
    await call("categories.delete", { id: food.id });
    expect(await total({ category_id: food.id })).toBe(0);
    await call("tags.delete", { id: tag.id });
    expect(await total({ tag_ids: [tag.id] })).toBe(0);
    // The unfiltered total is a kept count: every kind of write moves it.
    const other = await call("accounts.create", { account: { name: "B", account_type: "depository" } });
    await call("transfers.create", { transfer: { from_account_id: account.id, to_account_id: other.id, amount: 5, date: "2026-05-02" } });
    expect(await total({})).toBe(4);
    const { body: gone } = await call("transactions.create", { transaction: { account_id: account.id, date: "2026-05-03", amount: 2, name: "y" } });
    await call("transactions.delete", { id: gone.id });
    expect(await total({})).toBe(4);
    await call("accounts.delete", { id: account.id });
    expect(await total({})).toBe(1);
    await settled(finance);
    expect(await total({})).toBe(1);
    expect(Number((await finance.db.ledgerVersion.findUniqueOrThrow({ where: { familyId: actor.familyId } })).transactions)).toBe(1);
  });

  it("update (tags replaced only when given) and delete, recomputing from the earliest changed day", async () => {
    const call = newFamily();
    const account = await call("accounts.create", { account: { name: "A", account_type: "depository", balance: 50, opening_balance_date: "2026-01-01" } });
    const tag = await call("tags.create", { tag: { name: "T" } });
    const { body: txn } = await call("transactions.create", {
      transaction: { account_id: account.id, date: "2026-01-10", amount: 10, name: "Book", tag_ids: [tag.id] },
    });
    const renamed = await call("transactions.update", { id: txn.id, transaction: { name: "Novel", notes: "paperback" } });
    expect(renamed).toMatchObject({ name: "Novel", notes: "paperback", tags: [{ id: tag.id }] });
    const moved = await call("transactions.update", { id: txn.id, transaction: { date: "2026-01-03", amount: 20, tag_ids: [] } });
    expect(moved).toMatchObject({ date: "2026-01-03", amount_cents: 2000, tags: [] });
    await expectAppError(call("transactions.update", { id: txn.id, transaction: { currency: "JPY" } }), "validation_failed");
    await settled(finance);
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(3000);
    const jan3 = (await call("balances.list", { account_id: account.id, start_date: "2026-01-03", end_date: "2026-01-03" })).balances[0];
    expect(jan3).toMatchObject({ start_balance_cents: 5000, cash_outflows_cents: 2000, end_balance_cents: 3000 });

    expect(await call("transactions.delete", { id: txn.id })).toEqual({ message: "Transaction deleted successfully" });
    await settled(finance);
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(5000);
    await expectAppError(call("transactions.get", { id: txn.id }), "record_not_found");
  });
});

describe("valuations", () => {
  it("reset the balance on their day (the difference is an adjustment) and upsert per account and date", async () => {
    const call = newFamily();
    const account = await call("accounts.create", {
      account: { name: "House", account_type: "property", balance: 300000, opening_balance_date: "2025-01-01" },
    });
    const first = await call("valuations.create", { valuation: { account_id: account.id, amount: 320000, date: "2025-06-01", notes: "appraisal" } });
    expect(first.status).toBe(201);
    expect(ValuationSchema.parse(first.body)).toMatchObject({ kind: "reconciliation", amount_cents: 32000000, notes: "appraisal" });
    const again = await call("valuations.create", { valuation: { account_id: account.id, amount: 325000, date: "2025-06-01" }, upsert: true });
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id, amount_cents: 32500000 } });
    await settled(finance);
    const day = (await call("balances.list", { account_id: account.id, start_date: "2025-06-01", end_date: "2025-06-01" })).balances[0];
    expect(day).toMatchObject({
      start_non_cash_balance_cents: 30000000,
      non_cash_adjustments_cents: 2500000,
      end_balance_cents: 32500000,
      cash_balance_cents: 0,
    });
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(32500000);

    await expectAppError(call("valuations.update", { id: first.body.id, valuation: { amount: 1 } }), "validation_failed");
    const moved = await call("valuations.update", { id: first.body.id, valuation: { amount: 310000, date: "2025-07-01" } });
    expect(moved).toMatchObject({ date: "2025-07-01", amount_cents: 31000000 });
    await expectAppError(call("valuations.update", { id: first.body.id, valuation: { amount: 1, date: "2025-01-01" } }), "validation_failed");
    await expectAppError(newFamily()("valuations.get", { id: first.body.id }), "record_not_found");
    await settled(finance);
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(31000000);
  });
});

describe("syncs and the balance sheet", () => {
  it("show each run, and convert other currencies at stored rates, reporting a missing one", async () => {
    const call = newFamily();
    const usd = await call("accounts.create", { account: { name: "USD", account_type: "depository", balance: 1000 } });
    const eur = await call("accounts.create", { account: { name: "EUR", account_type: "depository", currency: "EUR", balance: 500 } });
    await call("accounts.create", { account: { name: "Card", account_type: "credit_card", balance: 200 } });
    await settled(finance);
    const sheet = await call("balanceSheet.get");
    expect(sheet).toMatchObject({
      currency: "USD",
      assets: { amount: "1000.00", formatted: "$1,000.00" },
      liabilities: { amount: "200.00" },
      net_worth: { amount: "800.00" },
      missing_exchange_rates: [{ from_currency: "EUR", to_currency: "USD", account_ids: [eur.id] }],
    });
    const rate = await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: "2020-01-01", rate: "1.1" });
    expect(rate).toMatchObject({ status: 201, body: { rate: "1.1", date: "2020-01-01" } });
    expect((await call("exchangeRates.upsert", { from: "eur", to: "usd", date: "2020-01-01", rate: "1.08" })).status).toBe(200);
    expect(await call("balanceSheet.get")).toMatchObject({ assets: { amount: "1540.00" }, net_worth: { amount: "1340.00" }, missing_exchange_rates: [] });
    // A rate stored the other way round is inverted; the latest one on or before today counts.
    await call("accounts.create", { account: { name: "GBP", account_type: "depository", currency: "GBP", balance: 100 } });
    await call("exchangeRates.upsert", { from: "USD", to: "GBP", date: "2020-01-01", rate: "0.5" });
    await call("exchangeRates.upsert", { from: "USD", to: "GBP", date: "2021-01-01", rate: "0.8" });
    await call("exchangeRates.upsert", { from: "USD", to: "GBP", date: "2999-01-01", rate: "0.1" });
    await settled(finance);
    expect(await call("balanceSheet.get")).toMatchObject({ assets: { amount: "1665.00" }, missing_exchange_rates: [] });

    const queued = await call("syncs.create");
    expect(queued).toMatchObject({ status: "pending", syncable_type: "Family" });
    await settled(finance);
    const shown = (await call("syncs.get", { id: queued.id })).data;
    expect(shown).toMatchObject({ status: "completed", terminal: true, in_progress: false, children_count: 4, error: null });
    expect((await call("syncs.latest")).data.id).toBe(queued.id);
    const history = await call("syncs.list", { per_page: 100 });
    expect(history.meta.total_count).toBeGreaterThanOrEqual(4);
    expect(history.data.some((s: { syncable: { id: string } }) => s.syncable.id === usd.id)).toBe(true);
    expect((await newFamily()("syncs.latest")).data).toBeNull();
    await expectAppError(newFamily()("syncs.get", { id: queued.id }), "record_not_found");
  });

  it("fail a sync with the missing rate named when an entry's currency cannot be converted", async () => {
    const call = newFamily();
    const account = await call("accounts.create", { account: { name: "USD", account_type: "depository", balance: 10, opening_balance_date: "2026-01-01" } });
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-02", amount: 5, currency: "GBP", name: "London" } });
    await settled(finance);
    const latest = (await call("syncs.latest")).data;
    expect(latest).toMatchObject({ status: "failed", error: { message: "No exchange rate from GBP to USD on or before 2026-01-02" } });
    await call("exchangeRates.upsert", { from: "GBP", to: "USD", date: "2026-01-01", rate: "1.25" });
    await settled(finance);
    expect((await call("syncs.latest")).data.status).toBe("completed");
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(1000 - 625);
  });

  // The API refuses such a rate now; a row stored before it did (a rate that rounded to 0 at the
  // column's 12 decimals) divided by zero in every later sync of the family.
  it("leave out a stored rate of 0, as if absent: syncs complete, conversions, matching and the balance sheet use the rate before it", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const checking = await call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: 1000, opening_balance_date: "2026-01-01" },
    });
    const euros = await call("accounts.create", {
      account: { name: "Euros", account_type: "depository", currency: "EUR", opening_balance_date: "2026-01-01" },
    });
    await call("exchangeRates.upsert", { from: "USD", to: "EUR", date: "2026-05-01", rate: "0.9" });
    await finance.db.$executeRaw`
      INSERT INTO exchange_rates (id, family_id, from_currency, to_currency, date, rate, updated_at)
      VALUES (gen_random_uuid(), ${actor.familyId}::uuid, 'EUR', 'USD', '2026-05-03', 0, now())`;
    const txn = (account: { id: string }, date: string, amount: number, currency?: string) =>
      call("transactions.create", { transaction: { account_id: account.id, date, amount, name: "x", ...(currency ? { currency } : {}) } });
    // A transfer across currencies (100 USD out, 90 EUR in at 0.9), and an entry in the other currency on each side.
    const out = await txn(checking, "2026-05-04", 100);
    const into = await txn(euros, "2026-05-05", -90);
    await txn(checking, "2026-05-06", 9, "EUR");
    await txn(euros, "2026-05-06", 10, "USD");
    await settled(finance);

    const syncs = (await call("syncs.list", { per_page: 100 })).data;
    expect(syncs.filter((sync: { status: string }) => sync.status !== "completed")).toEqual([]);
    // 9 EUR at 1 / 0.9 are 10.00 USD; 10 USD at 0.9 are 9.00 EUR.
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(100000 - 10000 - 1000);
    expect((await call("accounts.get", { id: euros.id })).balance_cents).toBe(9000 - 900);
    const pending = (await call("transfers.list", { status: "pending" })).transfers;
    expect(
      pending.map((t: { outflow_transaction: { id: string }; inflow_transaction: { id: string } }) => [t.outflow_transaction.id, t.inflow_transaction.id]),
    ).toEqual([[out.body.id, into.body.id]]);
    // 81 EUR at 1 / 0.9 count 90 USD towards the net worth.
    expect(await call("balanceSheet.get")).toMatchObject({ assets: { amount: "980.00" }, missing_exchange_rates: [] });
  });
});
