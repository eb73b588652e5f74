import type { Budget } from "../generated/prisma/client";
import { lineFigures, rolledUpFlows } from "./budget-figures";
import { MAX_ROLLOVER_PERIODS, type BudgetRepository } from "./budget-repository";

/**
 * The spec's rollover: a category with rollover on carries the previous period's available
 * amount (what was left, or the overspend as a negative amount), which itself includes what that
 * period rolled over when its rollover was on. Followed back through consecutive budgets, at most
 * MAX_ROLLOVER_PERIODS of them; a missing previous budget carries nothing.
 */
export async function rolledOverAmounts(
  budgets: BudgetRepository,
  familyId: string,
  budget: Budget,
  categoryIds: readonly string[],
  depth = 0,
): Promise<Map<string, bigint>> {
  const amounts = new Map<string, bigint>();
  if (categoryIds.length === 0 || depth >= MAX_ROLLOVER_PERIODS) return amounts;
  const previous = await budgets.previousBudget(familyId, budget);
  if (!previous) return amounts;
  const input = await budgets.figuresInput(familyId, previous);
  const rolled = rolledUpFlows(input.categories, input.actuals.byCategory);
  const parentOf = new Map(input.categories.map((category) => [category.id, category.parentId]));
  // What the previous period's available amounts of these categories depend on: their own rollover, and a parent's for a subcategory sharing it.
  const needed = [...new Set(categoryIds.flatMap((id) => [id, parentOf.get(id)].filter((each): each is string => typeof each === "string")))];
  const enabled = needed.filter((id) => input.lines.find((line) => line.categoryId === id)?.rolloverEnabled);
  const earlier = await rolledOverAmounts(budgets, familyId, previous, enabled, depth + 1);
  for (const categoryId of categoryIds) {
    const line = input.lines.find((each) => each.categoryId === categoryId);
    if (!line) continue;
    amounts.set(categoryId, lineFigures(line, { ...input, rolled, rolledOver: earlier }).availableToSpend);
  }
  return amounts;
}
