// The income statement (internal insights.incomeStatement) against the database: figures equal
// hand-computed sums, income and spending apart, Sure's IncomeStatement scope (excluded entries,
// transfers, disabled accounts and other periods left out), conversion, filters, and isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetIncomeStatementResultSchema, type Actor } from "@hearth/contracts";
import { contextOf, expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const MARCH = { start_date: "2024-03-01", end_date: "2024-03-31" };

/** The internal procedure as the chat service calls it: for the asking actor (internal procedures are mutations). */
async function statementFor(actor: Actor, input: Record<string, unknown>) {
  const answer = await finance.call("insights.incomeStatement", "mutation", input, contextOf(actor));
  return GetIncomeStatementResultSchema.parse(answer);
}

/** Just what a figure test compares: each group's id, name, cents and count. */
const figures = (groups: { id: string | null; name: string; amount_cents: number; transactions_count: number }[]) =>
  groups.map(({ id, name, amount_cents, transactions_count }) => ({ id, name, amount_cents, transactions_count }));

async function household() {
  const actor = newActor();
  const call = financeAs(finance, actor);
  const account = (name: string, extra: Record<string, unknown> = {}) =>
    call("accounts.create", { account: { name, account_type: "depository", balance: "0", opening_balance_date: "2024-01-01", ...extra } });
  const checking = await account("Checking");
  const savings = await account("Savings");
  const shop = await call("categories.create", { category: { name: "Food shop" } });
  const dining = await call("categories.create", { category: { name: "Eating out" } });
  const pay = await call("categories.create", { category: { name: "Paychecks", classification: "income" } });
  const corner = await call("merchants.create", { merchant: { name: "Corner Shop" } });
  const bistro = await call("merchants.create", { merchant: { name: "Bistro" } });
  const trip = await call("tags.create", { tag: { name: "Trip" } });
  const work = await call("tags.create", { tag: { name: "Work" } });
  const add = (date: string, amount: string, nature: "income" | "expense", name: string, extra: Record<string, unknown> = {}) =>
    call("transactions.create", { transaction: { account_id: checking.id, date, amount, nature, name, ...extra } });
  return { actor, call, account, checking, savings, shop, dining, pay, corner, bistro, trip, work, add };
}

/** March: counted rows, and rows Sure's scope leaves out. */
async function marchLedger() {
  const h = await household();
  const { add, shop, dining, pay, corner, bistro, trip, work } = h;
  await add("2024-03-02", "120.50", "expense", "Weekly shop", { category_id: shop.id, merchant_id: corner.id, tag_ids: [trip.id] });
  await add("2024-03-09", "79.50", "expense", "Weekly shop", { category_id: shop.id, merchant_id: corner.id });
  await add("2024-03-10", "45", "expense", "Dinner", { category_id: dining.id, merchant_id: bistro.id, tag_ids: [trip.id, work.id] });
  await add("2024-03-11", "15", "income", "Dinner refund", { category_id: dining.id, merchant_id: bistro.id });
  await add("2024-03-25", "3000", "income", "Salary", { category_id: pay.id });
  await add("2024-03-15", "30", "expense", "Something");
  // Left out: excluded, outside the period, a transfer between own accounts, a disabled account.
  await add("2024-03-12", "999", "expense", "Excluded", { category_id: shop.id, excluded: true });
  await add("2024-02-29", "888", "expense", "February", { category_id: shop.id });
  await add("2024-04-01", "777", "expense", "April", { category_id: shop.id });
  await h.call("transfers.create", { transfer: { from_account_id: h.checking.id, to_account_id: h.savings.id, amount: "500", date: "2024-03-05" } });
  const old = await h.account("Old card");
  await h.call("transactions.create", {
    transaction: { account_id: old.id, date: "2024-03-03", amount: "55", nature: "expense", name: "Disabled", category_id: shop.id },
  });
  await h.call("accounts.update", { id: old.id, account: { status: "disabled" } });
  await settled(finance);
  return h;
}

describe("insights.incomeStatement", () => {
  it("sums income and spending by category as Sure does, largest first, leaving out excluded, transfers, other periods and disabled accounts", async () => {
    const { actor, shop, dining, pay } = await marchLedger();
    const statement = await statementFor(actor, MARCH);
    expect(statement).toMatchObject({
      ...MARCH,
      currency: "USD",
      group_by: "category",
      income_total_cents: 300000 + 1500,
      income_total: "$3,015.00",
      spending_total_cents: 12050 + 7950 + 4500 + 3000,
      spending_total: "$275.00",
      net_cents: 301500 - 27500,
      net: "$2,740.00",
      missing_exchange_rates: [],
    });
    expect(figures(statement.spending)).toEqual([
      { id: shop.id, name: "Food shop", amount_cents: 20000, transactions_count: 2 },
      { id: dining.id, name: "Eating out", amount_cents: 4500, transactions_count: 1 },
      { id: null, name: "Uncategorized", amount_cents: 3000, transactions_count: 1 },
    ]);
    // The refund is money in: income under its category, not netted against the dinner.
    expect(figures(statement.income)).toEqual([
      { id: pay.id, name: "Paychecks", amount_cents: 300000, transactions_count: 1 },
      { id: dining.id, name: "Eating out", amount_cents: 1500, transactions_count: 1 },
    ]);
    expect(statement.spending[0]!.amount).toBe("$200.00");
  });

  it("groups by merchant, and by tag counting a transaction under each of its tags while the totals count it once", async () => {
    const { actor, corner, bistro, trip, work } = await marchLedger();
    const byMerchant = await statementFor(actor, { ...MARCH, group_by: "merchant" });
    expect(figures(byMerchant.spending)).toEqual([
      { id: corner.id, name: "Corner Shop", amount_cents: 20000, transactions_count: 2 },
      { id: bistro.id, name: "Bistro", amount_cents: 4500, transactions_count: 1 },
      { id: null, name: "No merchant", amount_cents: 3000, transactions_count: 1 },
    ]);
    expect(figures(byMerchant.income)).toEqual([
      { id: null, name: "No merchant", amount_cents: 300000, transactions_count: 1 },
      { id: bistro.id, name: "Bistro", amount_cents: 1500, transactions_count: 1 },
    ]);

    const byTag = await statementFor(actor, { ...MARCH, group_by: "tag" });
    expect(figures(byTag.spending)).toEqual([
      { id: trip.id, name: "Trip", amount_cents: 12050 + 4500, transactions_count: 2 },
      { id: null, name: "Untagged", amount_cents: 7950 + 3000, transactions_count: 2 },
      { id: work.id, name: "Work", amount_cents: 4500, transactions_count: 1 },
    ]);
    expect(figures(byTag.income)).toEqual([{ id: null, name: "Untagged", amount_cents: 301500, transactions_count: 2 }]);
    expect(byTag).toMatchObject({ group_by: "tag", spending_total_cents: 27500, income_total_cents: 301500, net_cents: 274000 });
  });

  it("narrows to one category (or the uncategorized), merchant or tag", async () => {
    const { actor, shop, dining, bistro, trip } = await marchLedger();
    const food = await statementFor(actor, { ...MARCH, category_id: shop.id });
    expect(food).toMatchObject({ spending_total_cents: 20000, income_total_cents: 0, net_cents: -20000, income: [] });
    expect(figures(food.spending)).toEqual([{ id: shop.id, name: "Food shop", amount_cents: 20000, transactions_count: 2 }]);

    const uncategorized = await statementFor(actor, { ...MARCH, category_id: null });
    expect(uncategorized).toMatchObject({ spending_total_cents: 3000, income_total_cents: 0 });
    expect(figures(uncategorized.spending)).toEqual([{ id: null, name: "Uncategorized", amount_cents: 3000, transactions_count: 1 }]);

    const atBistro = await statementFor(actor, { ...MARCH, merchant_id: bistro.id });
    expect(atBistro).toMatchObject({ spending_total_cents: 4500, income_total_cents: 1500, net_cents: -3000 });
    expect(figures(atBistro.spending)).toEqual([{ id: dining.id, name: "Eating out", amount_cents: 4500, transactions_count: 1 }]);

    const onTrip = await statementFor(actor, { ...MARCH, tag_id: trip.id });
    expect(onTrip).toMatchObject({ spending_total_cents: 16550, income_total_cents: 0 });
    expect(figures(onTrip.spending)).toEqual([
      { id: shop.id, name: "Food shop", amount_cents: 12050, transactions_count: 1 },
      { id: dining.id, name: "Eating out", amount_cents: 4500, transactions_count: 1 },
    ]);
    const onTripByTag = await statementFor(actor, { ...MARCH, tag_id: trip.id, group_by: "tag" });
    expect(onTripByTag.spending.map((group) => group.name)).toEqual(["Trip", "Work"]);
    expect(onTripByTag.spending_total_cents).toBe(16550);
  });

  it("converts other currencies at the family's rate on or before each day, and lists the currencies without one instead of taking 1", async () => {
    const { actor, call, account, add, shop } = await household();
    const euros = await account("Euro card", { currency: "EUR" });
    const pounds = await account("Pound card", { currency: "GBP" });
    await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: "2024-03-01", rate: "1.1" });
    await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: "2024-03-20", rate: "1.2" });
    const onEuros = (date: string, amount: string, nature: "income" | "expense") =>
      call("transactions.create", { transaction: { account_id: euros.id, date, amount, nature, name: "Euro", category_id: shop.id } });
    await onEuros("2024-03-10", "100", "expense"); // 110.00 USD
    await onEuros("2024-03-21", "10", "expense"); // 12.00 USD
    await onEuros("2024-03-22", "50", "income"); // 60.00 USD
    await add("2024-03-10", "8", "expense", "Dollars", { category_id: shop.id });
    await call("transactions.create", {
      transaction: { account_id: pounds.id, date: "2024-03-10", amount: "10", nature: "expense", name: "Tea", category_id: shop.id },
    });
    await settled(finance);

    const statement = await statementFor(actor, MARCH);
    expect(statement).toMatchObject({
      currency: "USD",
      spending_total_cents: 11000 + 1200 + 800,
      income_total_cents: 6000,
      missing_exchange_rates: [{ from_currency: "GBP", to_currency: "USD", entries_count: 1 }],
    });
    // The pound entry has no rate: in neither the sum nor the count.
    expect(figures(statement.spending)).toEqual([{ id: shop.id, name: "Food shop", amount_cents: 13000, transactions_count: 3 }]);
    expect(figures(statement.income)).toEqual([{ id: shop.id, name: "Food shop", amount_cents: 6000, transactions_count: 1 }]);
  });

  it("answers for the actor's family only, whatever ids it is given", async () => {
    const ours = await marchLedger();
    const stranger = await household();
    await stranger.add("2024-03-04", "12", "expense", "Theirs", { category_id: stranger.shop.id });
    const theirs = await statementFor(stranger.actor, MARCH);
    expect(theirs).toMatchObject({ spending_total_cents: 1200, income_total_cents: 0 });
    expect(figures(theirs.spending)).toEqual([{ id: stranger.shop.id, name: "Food shop", amount_cents: 1200, transactions_count: 1 }]);
    // Our category, merchant and tag ids select nothing of theirs, and name nothing of ours.
    for (const filter of [{ category_id: ours.shop.id }, { merchant_id: ours.corner.id }, { tag_id: ours.trip.id }]) {
      expect(await statementFor(stranger.actor, { ...MARCH, ...filter })).toMatchObject({
        spending_total_cents: 0,
        income_total_cents: 0,
        spending: [],
        income: [],
      });
    }
    expect((await statementFor(ours.actor, MARCH)).spending_total_cents).toBe(27500);
  });

  it("refuses a period that ends before it starts, an unknown grouping and a date that is no date", async () => {
    const actor = newActor();
    await expectAppError(
      finance.call("insights.incomeStatement", "mutation", { start_date: "2024-03-31", end_date: "2024-03-01" }, contextOf(actor)),
      "validation_failed",
    );
    await expectAppError(finance.call("insights.incomeStatement", "mutation", { ...MARCH, group_by: "account" }, contextOf(actor)), "validation_failed");
    await expectAppError(
      finance.call("insights.incomeStatement", "mutation", { start_date: "2024-02-30", end_date: "2024-03-01" }, contextOf(actor)),
      "validation_failed",
    );
    // A family with nothing yet: zeros, not an error.
    expect(await statementFor(actor, MARCH)).toMatchObject({ income_total_cents: 0, spending_total_cents: 0, net: "$0.00", income: [], spending: [] });
  });
});
