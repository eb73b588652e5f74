// Budget periods and figures, pure. Cases mirror Sure's test/models/budget_test.rb and
// budget_category_test.rb (amounts in dollars there, cents here).
import { describe, expect, it } from "vitest";
import { actualSpendingOf, budgetFigures, lineFigures, rolledUpFlows, type BudgetLine, type FamilyCategory } from "../src/budgets/budget-figures";
import { periodContaining, periodShifted } from "@hearth/contracts";
import { budgetNameOf, budgetableRange } from "../src/budgets/budget-periods";

describe("budget periods", () => {
  it("follow the family's month start day, ending the day before the next start", () => {
    expect(periodContaining("2026-11-23", 1)).toEqual({ start: "2026-11-01", end: "2026-11-30" });
    expect(periodContaining("2026-11-23", 5)).toEqual({ start: "2026-11-05", end: "2026-12-04" });
    expect(periodContaining("2026-11-04", 5)).toEqual({ start: "2026-10-05", end: "2026-11-04" });
    expect(periodContaining("2027-01-03", 15)).toEqual({ start: "2026-12-15", end: "2027-01-14" });
    expect(periodContaining("2028-02-29", 1)).toEqual({ start: "2028-02-01", end: "2028-02-29" });
    expect(periodContaining("2026-03-27", 28)).toEqual({ start: "2026-02-28", end: "2026-03-27" });
    expect(periodShifted("2026-11-05", -1)).toEqual({ start: "2026-10-05", end: "2026-11-04" });
    expect(periodShifted("2026-01-01", -1)).toEqual({ start: "2025-12-01", end: "2025-12-31" });
  });

  it("are named as Sure names them (budgets.name.month_year and custom_range)", () => {
    expect(budgetNameOf({ start: "2026-11-01", end: "2026-11-30" })).toBe("November 2026");
    expect(budgetNameOf({ start: "2026-11-05", end: "2026-12-04" })).toBe("Nov 05 - December 04, 2026");
    expect(budgetNameOf({ start: "2026-12-15", end: "2027-01-14" })).toBe("Dec 15 - January 14, 2027");
  });

  it("may start from two years back (or the oldest entry's month) to two years ahead (Sure's budget_date_valid? cases)", () => {
    expect(budgetableRange("2026-11-23", 1, null)).toEqual({ start: "2024-11-01", end: "2028-11-01" });
    expect(budgetableRange("2026-11-23", 1, "2023-06-17")).toEqual({ start: "2023-06-01", end: "2028-11-01" });
    expect(budgetableRange("2026-11-23", 1, "2025-11-02")).toEqual({ start: "2024-11-01", end: "2028-11-01" });
    expect(budgetableRange("2026-11-23", 15, null)).toEqual({ start: "2024-11-01", end: "2028-11-15" });
  });
});

const food: FamilyCategory = { id: "food", parentId: null };
const restaurants: FamilyCategory = { id: "restaurants", parentId: "food" };
const groceries: FamilyCategory = { id: "groceries", parentId: "food" };
const categories = [food, restaurants, groceries];
const line = (categoryId: string, dollars: number, rolloverEnabled = false): BudgetLine => ({
  categoryId,
  budgetedCents: BigInt(dollars * 100),
  rolloverEnabled,
});
const spent = (dollars: number, refunded = 0) => ({ expense: BigInt(dollars * 100), income: BigInt(refunded * 100) });

describe("budget category figures (Sure's budget_category_test)", () => {
  // Sure's setup: Food 1000 with Restaurants 300 (its own limit) and Groceries 0 (inheriting).
  const lines = [line("food", 1000), line("restaurants", 300), line("groceries", 0)];

  it("an inheriting subcategory shares its parent's available amount; one with a limit is ring-fenced (650 / 650 / 200)", () => {
    // Restaurants spent 100 and Groceries 50: Food's total is 150 with its children.
    const rolled = rolledUpFlows(
      categories,
      new Map([
        ["restaurants", spent(100)],
        ["groceries", spent(50)],
      ]),
    );
    const context = { categories, lines, rolled, rolledOver: new Map() };
    expect(lineFigures(lines[0]!, context)).toMatchObject({
      subcategory: false,
      inheritsParentBudget: false,
      actualSpending: 15000n,
      availableToSpend: 65000n,
    });
    expect(lineFigures(lines[2]!, context)).toMatchObject({
      subcategory: true,
      inheritsParentBudget: true,
      displayBudgetedCents: 100000n,
      availableToSpend: 65000n,
    });
    expect(lineFigures(lines[1]!, context)).toMatchObject({ inheritsParentBudget: false, displayBudgetedCents: 30000n, availableToSpend: 20000n });
  });

  it("a parent with only inheriting subcategories shares its whole limit (800 each)", () => {
    const shared = [line("food", 1000), line("restaurants", 0), line("groceries", 0)];
    const rolled = rolledUpFlows(
      categories,
      new Map([
        ["restaurants", spent(100)],
        ["groceries", spent(100)],
      ]),
    );
    const context = { categories, lines: shared, rolled, rolledOver: new Map() };
    for (const each of shared) expect(lineFigures(each, context).availableToSpend).toBe(80000n);
  });

  it("a standalone category: 500 budgeted, 200 spent, 300 left", () => {
    const fun = { id: "fun", parentId: null };
    const context = { categories: [fun], lines: [line("fun", 500)], rolled: new Map([["fun", spent(200)]]), rolledOver: new Map() };
    expect(lineFigures(line("fun", 500), context).availableToSpend).toBe(30000n);
  });

  it("rollover adds the previous period's amount (left or overspent) to what is left, and shows it", () => {
    const rolled = rolledUpFlows(categories, new Map([["food", spent(400)]]));
    const withRollover = [line("food", 1000, true), line("restaurants", 300), line("groceries", 0)];
    const context = { categories, lines: withRollover, rolled, rolledOver: new Map([["food", -12345n]]) };
    expect(lineFigures(withRollover[0]!, context)).toMatchObject({ rolledOver: -12345n, availableToSpend: 100000n - 30000n - 40000n - 12345n });
    // The inheriting subcategory shares the parent's, rollover included.
    expect(lineFigures(withRollover[2]!, context).availableToSpend).toBe(100000n - 30000n - 40000n - 12345n);
    // Without the flag nothing rolls over, whatever the previous period left.
    expect(lineFigures(line("food", 1000), { ...context, lines: [line("food", 1000)] }).rolledOver).toBe(0n);
  });
});

describe("budget figures (Sure's budget_test)", () => {
  it("actual spending nets refunds against expenses in the same category (500 - 200 = 300), never below zero", () => {
    const health = { id: "health", parentId: null };
    const rolled = rolledUpFlows([health], new Map([["health", spent(500, 200)]]));
    expect(actualSpendingOf(rolled, "health")).toBe(30000n);
    expect(actualSpendingOf(rolledUpFlows([health], new Map([["health", spent(0, 50)]])), "health")).toBe(0n);
  });

  it("uncategorized refunds reduce actual spending; income is gross; allocation sums top-level limits only", () => {
    const rolled = rolledUpFlows(
      categories,
      new Map([
        [null, spent(400, 150)],
        ["groceries", spent(80, 500)],
        ["food", spent(20)],
      ]),
    );
    const figures = budgetFigures({ budgetedCents: 200000n, categories, lines: [line("food", 1000), line("restaurants", 300), line("groceries", 0)], rolled });
    // Uncategorized nets 250; Food (with Groceries) spends 100 and takes 500 in: a net income, so it adds no spending.
    expect(figures).toEqual({
      allocatedSpending: 100000n,
      actualSpending: 25000n,
      actualIncome: 65000n,
      availableToSpend: 175000n,
      availableToAllocate: 100000n,
    });
  });

  it("a budget not yet initialized counts its budgeted spending as zero", () => {
    const figures = budgetFigures({ budgetedCents: null, categories, lines: [], rolled: rolledUpFlows(categories, new Map([["food", spent(10)]])) });
    expect(figures.availableToSpend).toBe(-1000n);
    expect(figures.availableToAllocate).toBe(0n);
  });
});
