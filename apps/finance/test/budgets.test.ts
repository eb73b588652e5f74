// Budgets and budget categories through the finance procedures, against the database: periods,
// Sure's figures over real ledger rows (test/models/budget_test.rb cases), conversion, edits and
// the spec's rollover.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetCategorySchema, BudgetLinesSchema, BudgetSchema } from "@hearth/contracts";
import { periodContaining, periodShifted } from "@hearth/contracts";
import { addDays, todayIso } from "../src/ledger/dates";
import { contextOf, expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const current = periodContaining(todayIso(), 1);
const previous = periodShifted(current.start, -1);

async function household() {
  const actor = newActor();
  const call = financeAs(finance, actor);
  const checking = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: "5000", opening_balance_date: "2024-01-01" },
  });
  const food = await call("categories.create", { category: { name: "Eating" } });
  const restaurants = await call("categories.create", { category: { name: "Eating out", parent_id: food.id } });
  const spend = (amount: string, name: string, extra: Record<string, unknown> = {}) =>
    call("transactions.create", { transaction: { account_id: checking.id, date: current.start, amount, name, nature: "expense", ...extra } });
  return { actor, call, checking, food, restaurants, spend };
}

const lineOf = async (call: ReturnType<typeof financeAs>, budgetId: string, categoryId: string) =>
  (await call("budgetCategories.list", { budget_id: budgetId, category_id: categoryId })).budget_categories[0];

describe("budgets", () => {
  it("are made once per period, with a line for every category, whatever the day asked and however many ask at once", async () => {
    const { call } = await household();
    const answers = await Promise.all(
      [current.start, current.end, current.start, addDays(current.start, 3)].map((date) => call("budgets.create", { budget: { start_date: date } })),
    );
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 201]);
    const budget = BudgetSchema.parse(answers[0]!.body);
    expect(budget).toMatchObject({
      start_date: current.start,
      end_date: current.end,
      initialized: false,
      current: true,
      budgeted_spending: null,
      currency: "USD",
    });
    expect(budget.name).toMatch(/^[A-Z][a-z]+ \d{4}$/u);
    const categories = (await call("categories.list", { per_page: 100 })).pagination.total_count;
    expect((await call("budgetCategories.list", { budget_id: budget.id, per_page: 100 })).pagination.total_count).toBe(categories);
  });

  it("count spending and income as Sure does: refunds net within a category, transfers, excluded entries and disabled accounts left out", async () => {
    const { call, checking, food, restaurants, spend } = await household();
    await spend("500", "Dinner", { category_id: restaurants.id });
    await call("transactions.create", {
      transaction: { account_id: checking.id, date: current.start, amount: "200", name: "Refund", nature: "income", category_id: restaurants.id },
    });
    await spend("40", "Groceries", { category_id: food.id });
    await spend("400", "Uncategorized purchase");
    await call("transactions.create", {
      transaction: { account_id: checking.id, date: current.start, amount: "150", name: "Uncategorized refund", nature: "income" },
    });
    const pay = await call("categories.create", { category: { name: "Paychecks", classification: "income" } });
    await call("transactions.create", {
      transaction: { account_id: checking.id, date: current.start, amount: "3000", name: "Salary", nature: "income", category_id: pay.id },
    });
    await spend("999", "Excluded", { excluded: true, category_id: food.id });
    await spend("777", "Last period", { date: previous.end, category_id: food.id });
    const savings = await call("accounts.create", {
      account: { name: "Savings", account_type: "depository", balance: "0", opening_balance_date: "2024-01-01" },
    });
    await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "1000", date: current.start } });
    const old = await call("accounts.create", { account: { name: "Old card", account_type: "depository", balance: "0", opening_balance_date: "2024-01-01" } });
    await call("transactions.create", {
      transaction: { account_id: old.id, date: current.start, amount: "55", name: "Disabled", nature: "expense", category_id: food.id },
    });
    await call("accounts.update", { id: old.id, account: { status: "disabled" } });
    await settled(finance);

    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    await call("budgets.update", { id: body.id, budget: { budgeted_spending: "2000", expected_income: "3500" } });
    const budget = BudgetSchema.parse(await call("budgets.get", { id: body.id }));
    // Food with Restaurants: 500 - 200 + 40 = 340; uncategorized 400 - 150 = 250; income: 200 + 150 + 3000 gross.
    expect(budget).toMatchObject({
      initialized: true,
      budgeted_spending_cents: 200000,
      expected_income_cents: 350000,
      actual_spending_cents: 59000,
      actual_income_cents: 335000,
      available_to_spend_cents: 200000 - 59000,
      allocated_spending_cents: 0,
      available_to_allocate_cents: 200000,
      missing_exchange_rates: [],
    });
    expect(budget.actual_spending).toBe("$590.00");
    const foodLine = BudgetCategorySchema.parse(await call("budgetCategories.get", { id: (await lineOf(call, body.id, food.id)).id }));
    expect(foodLine).toMatchObject({ subcategory: false, actual_spending_cents: 34000, available_to_spend_cents: -34000, rolled_over_amount_cents: 0 });
    const restaurantsLine = await call("budgetCategories.get", { id: (await lineOf(call, body.id, restaurants.id)).id });
    expect(restaurantsLine).toMatchObject({
      subcategory: true,
      inherits_parent_budget: true,
      actual_spending_cents: 30000,
      category: { parent_id: food.id, iconset_icon: expect.any(String) },
    });
  });

  it("count a loan payment as spending, but not a transfer between own accounts (Sure's BUDGET_EXCLUDED_KINDS)", async () => {
    const { call, checking } = await household();
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const savings = await call("accounts.create", {
      account: { name: "Savings", account_type: "depository", balance: "0", opening_balance_date: "2024-01-01" },
    });
    const loan = await call("accounts.create", { account: { name: "Car loan", account_type: "loan", balance: "9000", opening_balance_date: "2024-01-01" } });
    await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "1000", date: current.start } });
    expect((await call("budgets.get", { id: body.id })).actual_spending_cents).toBe(0);
    await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: loan.id, amount: "300", date: current.start } });
    expect((await call("budgets.get", { id: body.id })).actual_spending_cents).toBe(30000);
  });

  it("convert other currencies at the rate on or before each day, and list the currencies without one instead of taking 1", async () => {
    const { call, food } = await household();
    const euros = await call("accounts.create", {
      account: { name: "Euro card", account_type: "depository", currency: "EUR", balance: "0", opening_balance_date: "2024-01-01" },
    });
    const pounds = await call("accounts.create", {
      account: { name: "Pound card", account_type: "depository", currency: "GBP", balance: "0", opening_balance_date: "2024-01-01" },
    });
    await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: previous.start, rate: "1.1" });
    // Stored the other way round: 1 USD = 0.8 EUR from the period's start, so 1 EUR = 1.25 USD from then on.
    await call("exchangeRates.upsert", { from: "USD", to: "EUR", date: current.start, rate: "0.8" });
    for (const amount of ["0.01", "0.01", "0.01"])
      await call("transactions.create", {
        transaction: { account_id: euros.id, date: addDays(current.start, 1), amount, name: "Tiny", nature: "expense", category_id: food.id },
      });
    await call("transactions.create", {
      transaction: { account_id: euros.id, date: current.start, amount: "100", name: "Bistro", nature: "expense", category_id: food.id },
    });
    await call("transactions.create", {
      transaction: { account_id: pounds.id, date: current.start, amount: "10", name: "Tea", nature: "expense", category_id: food.id },
    });
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const budget = await call("budgets.get", { id: body.id });
    // 100.03 EUR x 1.25, the group's exact sum rounded once: 125.0375 -> 125.04 (three cents alone would round to 3 x 1 cent = 125.03).
    expect(budget).toMatchObject({ actual_spending_cents: 12504, missing_exchange_rates: [{ from_currency: "GBP", to_currency: "USD", entries_count: 1 }] });
  });

  it("refuse a day outside the budgetable range, negative or over-precise amounts, and another family's budget", async () => {
    const { call } = await household();
    await expectAppError(call("budgets.create", { budget: { start_date: "1999-01-01" } }), "validation_failed");
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    await expectAppError(call("budgets.update", { id: body.id, budget: { budgeted_spending: "-1" } }), "validation_failed");
    await expectAppError(call("budgets.update", { id: body.id, budget: { budgeted_spending: "1.001" } }), "validation_failed");
    const stranger = financeAs(finance, newActor());
    await expectAppError(stranger("budgets.get", { id: body.id }), "record_not_found");
    await expectAppError(stranger("budgets.update", { id: body.id, budget: { budgeted_spending: "5" } }), "record_not_found");
    const line = (await call("budgetCategories.list", { budget_id: body.id })).budget_categories[0];
    await expectAppError(stranger("budgetCategories.get", { id: line.id }), "record_not_found");
    await expectAppError(stranger("budgetCategories.update", { id: line.id, budget_category: { budgeted_spending: "5" } }), "record_not_found");
    expect((await stranger("budgetCategories.list", {})).budget_categories).toEqual([]);
    expect((await stranger("budgets.list", {})).budgets).toEqual([]);
  });

  it("answer 422, not 500, when a period's figures pass the largest exact JSON integer (an extreme rate)", async () => {
    const { call } = await household();
    const euros = await call("accounts.create", {
      account: { name: "Euro vault", account_type: "depository", currency: "EUR", balance: "0", opening_balance_date: "2024-01-01" },
    });
    await call("exchangeRates.upsert", { from: "EUR", to: "USD", date: previous.start, rate: "100000" });
    await call("transactions.create", { transaction: { account_id: euros.id, date: current.start, amount: "9999999999", name: "Huge", nature: "expense" } });
    // Made, but its figures cannot be shown: the create answers 422 too, and so does every read until the rate or entry changes.
    await expectAppError(call("budgets.create", { budget: { start_date: current.start } }), "validation_failed");
    const [made] = (await call("budgets.list", {})).budgets;
    const error = await expectAppError(call("budgets.get", { id: made.id }), "validation_failed");
    expect(error.message).toContain("exceed the largest the API can show");
  });

  it("keep their lines in step with the family's categories", async () => {
    const { call, food } = await household();
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const before = (await call("budgetCategories.list", { budget_id: body.id, per_page: 100 })).pagination.total_count;
    const pets = await call("categories.create", { category: { name: "Pet food" } });
    expect(await lineOf(call, body.id, pets.id)).toMatchObject({ budgeted_spending_cents: 0, category: { name: "Pet food" } });
    await call("categories.delete", { id: food.id });
    expect(await lineOf(call, body.id, food.id)).toBeUndefined();
    expect((await call("budgetCategories.list", { budget_id: body.id, per_page: 100 })).pagination.total_count).toBe(before);
  });

  it("list newest first with Sure's filters and pages", async () => {
    const { call } = await household();
    for (let months = -3; months <= 1; months++) await call("budgets.create", { budget: { start_date: periodShifted(current.start, months).start } });
    const all = await call("budgets.list", {});
    expect(all.budgets.map((budget: { start_date: string }) => budget.start_date)).toEqual(
      [1, 0, -1, -2, -3].map((months) => periodShifted(current.start, months).start),
    );
    expect(all.budgets[1]).toMatchObject({ current: true, allocated_spending_cents: 0 });
    expect(all.budgets[1]).not.toHaveProperty("actual_spending");
    const filtered = await call("budgets.list", { start_date: previous.start, end_date: current.end, per_page: 1, page: 2 });
    expect(filtered.budgets.map((budget: { start_date: string }) => budget.start_date)).toEqual([previous.start]);
    expect(filtered.pagination).toEqual({ page: 2, per_page: 1, total_count: 2, total_pages: 2 });
  });
});

describe("budget categories", () => {
  it("a subcategory's new limit moves its parent's as Sure's update_budgeted_spending! does, keeping the parent's reserve", async () => {
    const { call, food, restaurants } = await household();
    const fastFood = await call("categories.create", { category: { name: "Fast food", parent_id: food.id } });
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const foodLine = await lineOf(call, body.id, food.id);
    await call("budgetCategories.update", { id: foodLine.id, budget_category: { budgeted_spending: "1000" } });
    const restaurantsLine = await lineOf(call, body.id, restaurants.id);
    // Sure: parent 1000 with a subcategory at 300 and one inheriting; the inheriting one set to 200 makes the parent 1200.
    await call("budgetCategories.update", { id: restaurantsLine.id, budget_category: { budgeted_spending: "300" } });
    expect((await lineOf(call, body.id, food.id)).budgeted_spending_cents).toBe(100000 + 30000);
    const fastFoodLine = await lineOf(call, body.id, fastFood.id);
    expect(fastFoodLine).toMatchObject({ inherits_parent_budget: true, display_budgeted_spending_cents: 130000 });
    const updated = await call("budgetCategories.update", { id: fastFoodLine.id, budget_category: { budgeted_spending: "200" } });
    expect(updated).toMatchObject({ inherits_parent_budget: false, budgeted_spending_cents: 20000 });
    expect((await lineOf(call, body.id, food.id)).budgeted_spending_cents).toBe(150000);
    // Back to shared: the parent drops by the subcategory's old limit.
    await call("budgetCategories.update", { id: restaurantsLine.id, budget_category: { budgeted_spending: "0" } });
    expect((await lineOf(call, body.id, food.id)).budgeted_spending_cents).toBe(120000);
    expect((await call("budgets.get", { id: body.id })).allocated_spending_cents).toBe(120000);
  });

  it("parallel edits of sibling subcategories both reach the parent", async () => {
    const { call, food, restaurants } = await household();
    const cafes = await call("categories.create", { category: { name: "Cafes", parent_id: food.id } });
    const { body } = await call("budgets.create", { budget: { start_date: current.start } });
    const [a, b] = await Promise.all([lineOf(call, body.id, restaurants.id), lineOf(call, body.id, cafes.id)]);
    await Promise.all([
      call("budgetCategories.update", { id: a.id, budget_category: { budgeted_spending: "100" } }),
      call("budgetCategories.update", { id: b.id, budget_category: { budgeted_spending: "50" } }),
    ]);
    expect((await lineOf(call, body.id, food.id)).budgeted_spending_cents).toBe(15000);
  });

  it("with rollover, carry what the previous period left (or overspent) into what is left to spend", async () => {
    const { actor, call, checking, food } = await household();
    const earlier = (await call("budgets.create", { budget: { start_date: previous.start } })).body;
    const now = (await call("budgets.create", { budget: { start_date: current.start } })).body;
    await call("budgetCategories.update", { id: (await lineOf(call, earlier.id, food.id)).id, budget_category: { budgeted_spending: "100" } });
    await call("transactions.create", {
      transaction: { account_id: checking.id, date: previous.start, amount: "30", name: "Lunch", nature: "expense", category_id: food.id },
    });
    const line = await lineOf(call, now.id, food.id);
    const off = await call("budgetCategories.update", { id: line.id, budget_category: { budgeted_spending: "50" } });
    expect(off).toMatchObject({ rollover_enabled: false, rolled_over_amount_cents: 0, available_to_spend_cents: 5000 });
    const on = await call("budgetCategories.update", { id: line.id, budget_category: { rollover_enabled: true } });
    expect(on).toMatchObject({ rollover_enabled: true, rolled_over_amount_cents: 7000, available_to_spend_cents: 12000 });
    // An overspent previous period rolls over as a negative amount.
    await call("transactions.create", {
      transaction: { account_id: checking.id, date: previous.start, amount: "170", name: "Feast", nature: "expense", category_id: food.id },
    });
    expect(await call("budgetCategories.get", { id: line.id })).toMatchObject({ rolled_over_amount_cents: -10000, available_to_spend_cents: -5000 });

    // The assistant's bulk read: every line's figures computed at once, the same as each line's own.
    const bulk = BudgetLinesSchema.parse(await finance.call("insights.budgetLines", "mutation", { budget_id: now.id }, contextOf(actor))).budget_categories;
    const { budget_categories: lines } = await call("budgetCategories.list", { budget_id: now.id, per_page: 100 });
    expect(bulk.map((each) => each.id).sort()).toEqual(lines.map((each: { id: string }) => each.id).sort());
    for (const each of bulk) expect(each).toEqual(await call("budgetCategories.get", { id: each.id }));
    expect(bulk.find((each) => each.id === line.id)).toMatchObject({ rolled_over_amount_cents: -10000, available_to_spend_cents: -5000 });
    // Another family's budget is not found.
    await expectAppError(finance.call("insights.budgetLines", "mutation", { budget_id: now.id }, contextOf(newActor())), "record_not_found");
  });

  it("refuse a budget_id that is no UUID, naming it", async () => {
    const { call } = await household();
    const error = await expectAppError(call("budgetCategories.list", { budget_id: "nope" }), "validation_failed");
    expect(error.message).toContain("budget_id must be a valid UUID");
  });
});
