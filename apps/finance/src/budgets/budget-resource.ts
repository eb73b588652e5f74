import type { Budget as BudgetResource, BudgetCategory as BudgetCategoryResource, BudgetCategorySummary, BudgetSummary } from "@hearth/contracts";
import type { Budget, BudgetCategory, Category } from "../generated/prisma/client";
import { isoDateOf, todayIso } from "../ledger/dates";
import { pairOf } from "../ledger/money";
import type { budgetFigures, LineFigures } from "./budget-figures";
import { budgetNameOf } from "./budget-periods";

const nullablePair = <N extends string>(name: N, cents: bigint | null, currency: string) =>
  cents === null ? ({ [name]: null, [`${name}_cents`]: null } as { [K in N | `${N}_cents`]: null }) : pairOf(name, cents, currency);

export function toBudgetSummary(budget: Budget & { allocatedCents: bigint }, today = todayIso()): BudgetSummary {
  const period = { start: isoDateOf(budget.startDate), end: isoDateOf(budget.endDate) };
  return {
    id: budget.id,
    start_date: period.start,
    end_date: period.end,
    name: budgetNameOf(period),
    currency: budget.currency,
    initialized: budget.budgetedSpendingCents !== null,
    current: period.start <= today && today <= period.end,
    ...nullablePair("budgeted_spending", budget.budgetedSpendingCents, budget.currency),
    ...nullablePair("expected_income", budget.expectedIncomeCents, budget.currency),
    ...pairOf("allocated_spending", budget.allocatedCents, budget.currency),
    created_at: budget.createdAt.toISOString(),
    updated_at: budget.updatedAt.toISOString(),
  };
}

export function toBudgetResource(
  budget: Budget & { allocatedCents: bigint },
  figures: ReturnType<typeof budgetFigures>,
  missing: BudgetResource["missing_exchange_rates"],
): BudgetResource {
  return {
    ...toBudgetSummary(budget),
    ...pairOf("actual_spending", figures.actualSpending, budget.currency),
    ...pairOf("actual_income", figures.actualIncome, budget.currency),
    ...pairOf("available_to_spend", figures.availableToSpend, budget.currency),
    ...pairOf("available_to_allocate", figures.availableToAllocate, budget.currency),
    missing_exchange_rates: missing,
  };
}

type LineRow = BudgetCategory & { category: Pick<Category, "id" | "name" | "color" | "icon" | "parentId"> };

/** A list item: a subcategory without a limit of its own shows its parent's (`parentBudgetedCents`, null for a top-level category). */
export function toBudgetCategorySummary(line: LineRow & { parentBudgetedCents: bigint | null }): BudgetCategorySummary {
  const subcategory = line.category.parentId !== null;
  const inherits = subcategory && line.budgetedSpendingCents === 0n;
  return {
    id: line.id,
    budget_id: line.budgetId,
    currency: line.currency,
    subcategory,
    inherits_parent_budget: inherits,
    rollover_enabled: line.rolloverEnabled,
    ...pairOf("budgeted_spending", line.budgetedSpendingCents, line.currency),
    ...pairOf("display_budgeted_spending", inherits ? (line.parentBudgetedCents ?? 0n) : line.budgetedSpendingCents, line.currency),
    category: {
      id: line.category.id,
      name: line.category.name,
      color: line.category.color,
      iconset_icon: line.category.icon,
      lucide_icon: line.category.icon,
      parent_id: line.category.parentId,
    },
    created_at: line.createdAt.toISOString(),
    updated_at: line.updatedAt.toISOString(),
  };
}

export function toBudgetCategoryResource(line: LineRow, figures: LineFigures): BudgetCategoryResource {
  return {
    ...toBudgetCategorySummary({ ...line, parentBudgetedCents: figures.displayBudgetedCents }),
    ...pairOf("rolled_over_amount", figures.rolledOver, line.currency),
    ...pairOf("actual_spending", figures.actualSpending, line.currency),
    ...pairOf("available_to_spend", figures.availableToSpend, line.currency),
  };
}
