// A budget's figures from its period's flows per category, exactly as Sure's Budget and
// BudgetCategory models compute them (test/models/budget_test.rb, budget_category_test.rb),
// plus the spec's rollover. Pure: the repository loads, this computes, tests drive it directly.
import type { CategoryFlows } from "./budget-actuals";

export interface FamilyCategory {
  id: string;
  parentId: string | null;
}

export interface BudgetLine {
  categoryId: string;
  budgetedCents: bigint;
  rolloverEnabled: boolean;
}

const NONE: CategoryFlows = { expense: 0n, income: 0n };
const max0 = (value: bigint) => (value > 0n ? value : 0n);

/**
 * Flows per category with each top-level category's total including its subcategories' (Sure's
 * IncomeStatement#build_period_total); a subcategory's total is its own.
 */
export function rolledUpFlows(categories: readonly FamilyCategory[], own: ReadonlyMap<string | null, CategoryFlows>): Map<string | null, CategoryFlows> {
  const parentOf = new Map(categories.map((category) => [category.id, category.parentId]));
  const rolled = new Map<string | null, CategoryFlows>();
  const add = (key: string | null, flows: CategoryFlows) => {
    const total = rolled.get(key) ?? { expense: 0n, income: 0n };
    rolled.set(key, { expense: total.expense + flows.expense, income: total.income + flows.income });
  };
  for (const [categoryId, flows] of own) {
    add(categoryId, flows);
    const parentId = categoryId === null ? null : parentOf.get(categoryId);
    if (parentId) add(parentId, flows);
  }
  return rolled;
}

/** What a category spent over the period: its spending net of refunds, never below zero (Sure's budget_category_actual_spending). */
export function actualSpendingOf(rolled: ReadonlyMap<string | null, CategoryFlows>, categoryId: string | null): bigint {
  const flows = rolled.get(categoryId) ?? NONE;
  return max0(flows.expense - flows.income);
}

/** The budget's own figures (Sure's Budget: allocated, actual, available). */
export function budgetFigures(input: {
  budgetedCents: bigint | null;
  categories: readonly FamilyCategory[];
  lines: readonly BudgetLine[];
  rolled: ReadonlyMap<string | null, CategoryFlows>;
}) {
  const parentOf = new Map(input.categories.map((category) => [category.id, category.parentId]));
  const isTopLevel = (categoryId: string | null) => categoryId === null || !parentOf.get(categoryId);
  // Sure's net_category_totals: per top-level category (and uncategorized), spending net of income; only positive nets add up.
  let actualSpending = 0n;
  let actualIncome = 0n;
  for (const [categoryId, flows] of input.rolled) {
    if (!isTopLevel(categoryId)) continue;
    actualSpending += max0(flows.expense - flows.income);
    actualIncome += flows.income;
  }
  const allocated = input.lines.filter((line) => isTopLevel(line.categoryId)).reduce((sum, line) => sum + line.budgetedCents, 0n);
  const budgeted = input.budgetedCents ?? 0n;
  return {
    allocatedSpending: allocated,
    actualSpending,
    actualIncome,
    availableToSpend: budgeted - actualSpending,
    availableToAllocate: budgeted - allocated,
  };
}

export interface LineFigures {
  subcategory: boolean;
  inheritsParentBudget: boolean;
  displayBudgetedCents: bigint;
  actualSpending: bigint;
  rolledOver: bigint;
  availableToSpend: bigint;
}

/**
 * One budget category's figures (Sure's BudgetCategory): a subcategory without a limit of its own
 * inherits its parent's and shares what the parent has left; one with a limit is ring-fenced, so
 * its parent's available amount is the parent's limit less the ring-fenced limits, less what the
 * rest of the parent spent. `rolledOver` gives the rolled-over amount of each category whose
 * rollover is on (the previous period's available amount): it adds to the available amount.
 */
export function lineFigures(
  line: BudgetLine,
  context: {
    categories: readonly FamilyCategory[];
    lines: readonly BudgetLine[];
    rolled: ReadonlyMap<string | null, CategoryFlows>;
    rolledOver: ReadonlyMap<string, bigint>;
  },
): LineFigures {
  const parentOf = new Map(context.categories.map((category) => [category.id, category.parentId]));
  const lineOf = new Map(context.lines.map((each) => [each.categoryId, each]));
  const parentId = parentOf.get(line.categoryId) ?? null;
  const subcategory = parentId !== null;
  const inherits = (candidate: BudgetLine) => (parentOf.get(candidate.categoryId) ?? null) !== null && candidate.budgetedCents === 0n;
  const rolloverOf = (candidate: BudgetLine) => (candidate.rolloverEnabled ? (context.rolledOver.get(candidate.categoryId) ?? 0n) : 0n);

  const parentAvailable = (parent: BudgetLine): bigint => {
    const ringFenced = context.lines.filter((each) => parentOf.get(each.categoryId) === parent.categoryId && !inherits(each));
    const fencedBudget = ringFenced.reduce((sum, each) => sum + each.budgetedCents, 0n);
    const fencedSpending = ringFenced.reduce((sum, each) => sum + actualSpendingOf(context.rolled, each.categoryId), 0n);
    const sharedPool = parent.budgetedCents - fencedBudget;
    const sharedSpending = actualSpendingOf(context.rolled, parent.categoryId) - fencedSpending;
    return sharedPool - sharedSpending + rolloverOf(parent);
  };

  const actualSpending = actualSpendingOf(context.rolled, line.categoryId);
  const parentLine = parentId === null ? undefined : lineOf.get(parentId);
  if (inherits(line)) {
    return {
      subcategory,
      inheritsParentBudget: true,
      displayBudgetedCents: parentLine?.budgetedCents ?? 0n,
      actualSpending,
      rolledOver: rolloverOf(line),
      availableToSpend: parentLine ? parentAvailable(parentLine) : 0n,
    };
  }
  const rolledOver = rolloverOf(line);
  return {
    subcategory,
    inheritsParentBudget: false,
    displayBudgetedCents: line.budgetedCents,
    actualSpending,
    rolledOver,
    availableToSpend: subcategory ? line.budgetedCents - actualSpending + rolledOver : parentAvailable(line),
  };
}
