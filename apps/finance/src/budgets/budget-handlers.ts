import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import { budgetFigures, lineFigures, rolledUpFlows } from "./budget-figures";
import type { BudgetRepository } from "./budget-repository";
import { toBudgetCategoryResource, toBudgetCategorySummary, toBudgetResource, toBudgetSummary } from "./budget-resource";
import { rolledOverAmounts } from "./budget-rollover";
import { showable } from "./budget-showable";

export function createBudgetHandlers(budgets: BudgetRepository) {
  const detailOf = async (familyId: string, id: string) => {
    const { budget, categories, lines, actuals } = await budgets.detail(familyId, id);
    const figures = budgetFigures({ budgetedCents: budget.budgetedSpendingCents, categories, lines, rolled: rolledUpFlows(categories, actuals.byCategory) });
    showable(...Object.values(figures));
    return toBudgetResource({ ...budget, allocatedCents: figures.allocatedSpending }, figures, actuals.missing);
  };
  const lineDetailOf = async (familyId: string, id: string) => {
    const line = await budgets.findLine(familyId, id);
    const input = await budgets.figuresInput(familyId, line.budget);
    const categoryIds = [line.categoryId, ...(line.category.parentId ? [line.category.parentId] : [])];
    const enabled = categoryIds.filter((categoryId) => input.lines.find((each) => each.categoryId === categoryId)?.rolloverEnabled);
    const rolledOver = await rolledOverAmounts(budgets, familyId, line.budget, enabled);
    const own = input.lines.find((each) => each.categoryId === line.categoryId)!;
    const figures = lineFigures(own, { ...input, rolled: rolledUpFlows(input.categories, input.actuals.byCategory), rolledOver });
    showable(figures.actualSpending, figures.availableToSpend, figures.rolledOver, figures.displayBudgetedCents);
    return toBudgetCategoryResource(line, figures);
  };

  const list: RouteHandler<"budgets.list"> = async ({ ctx, input }) => {
    const { rows, total } = await budgets.list(ctx.actor.familyId, input);
    return { budgets: rows.map((row) => toBudgetSummary(row)), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"budgets.get"> = async ({ ctx, input }) => detailOf(ctx.actor.familyId, input.id);
  /** 201 when the period's budget is made, 200 when it already was. */
  const create: RouteHandler<"budgets.create"> = async ({ ctx, input }) => {
    const { created, id } = await budgets.create(ctx.actor.familyId, input.budget.start_date);
    return { status: created ? 201 : 200, body: await detailOf(ctx.actor.familyId, id) };
  };
  const update: RouteHandler<"budgets.update"> = async ({ ctx, input }) => {
    await budgets.update(ctx.actor.familyId, input.id, input.budget);
    return detailOf(ctx.actor.familyId, input.id);
  };
  const listLines: RouteHandler<"budgetCategories.list"> = async ({ ctx, input }) => {
    const { rows, total } = await budgets.listLines(ctx.actor.familyId, input);
    return { budget_categories: rows.map(toBudgetCategorySummary), pagination: paginationOf(input, total) };
  };
  const getLine: RouteHandler<"budgetCategories.get"> = async ({ ctx, input }) => lineDetailOf(ctx.actor.familyId, input.id);
  const updateLine: RouteHandler<"budgetCategories.update"> = async ({ ctx, input }) => {
    await budgets.updateLine(ctx.actor.familyId, input.id, input.budget_category);
    return lineDetailOf(ctx.actor.familyId, input.id);
  };
  return {
    "budgets.list": list,
    "budgets.get": get,
    "budgets.create": create,
    "budgets.update": update,
    "budgetCategories.list": listLines,
    "budgetCategories.get": getLine,
    "budgetCategories.update": updateLine,
  };
}
