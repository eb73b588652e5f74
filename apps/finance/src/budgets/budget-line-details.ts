import { lineFigures, rolledUpFlows } from "./budget-figures";
import type { BudgetRepository } from "./budget-repository";
import { toBudgetCategoryResource } from "./budget-resource";
import { rolledOverAmounts } from "./budget-rollover";
import { showable } from "./budget-showable";

/**
 * Every line of a budget with its figures (as GET /api/v1/budget_categories/:id answers each),
 * from one computation of the period and one walk back through the rollover periods for all
 * lines at once: asking line by line repeats both for every line.
 */
export async function allLineDetailsOf(budgets: BudgetRepository, familyId: string, budgetId: string) {
  const lines = await budgets.linesOfBudget(familyId, budgetId);
  const first = lines[0];
  if (!first) return [];
  const input = await budgets.figuresInput(familyId, first.budget);
  const enabled = input.lines.filter((line) => line.rolloverEnabled).map((line) => line.categoryId);
  const rolledOver = await rolledOverAmounts(budgets, familyId, first.budget, enabled);
  const rolled = rolledUpFlows(input.categories, input.actuals.byCategory);
  return lines.map((line) => {
    const own = input.lines.find((each) => each.categoryId === line.categoryId)!;
    const figures = lineFigures(own, { ...input, rolled, rolledOver });
    showable(figures.actualSpending, figures.availableToSpend, figures.rolledOver, figures.displayBudgetedCents);
    return toBudgetCategoryResource(line, figures);
  });
}
