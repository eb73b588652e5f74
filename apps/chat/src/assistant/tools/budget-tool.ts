import { periodContaining, periodOfMonth, type AssistantBudgetLine, type BudgetCategory } from "@hearth/contracts";
import type { FinanceClient } from "../../finance-client";
import { todayIn } from "../today";
import { ToolRefusal, type ToolHandlers } from "./tool-handlers";

/** The month (YYYY-MM) whose budget period contains `today`: before the start day, the period began the month before. */
export const currentBudgetMonth = (today: string, startDay: number): string => periodContaining(today, startDay).start.slice(0, 7);

/**
 * get_budget: the budget's own figures, and a line for each category that has a limit or spending
 * in the period, itself or in a subcategory (found with one income statement rather than asking
 * every line of the family's categories for its actuals).
 */
export function budgetTool(finance: FinanceClient): Pick<ToolHandlers, "get_budget"> {
  return {
    async get_budget(args) {
      const settings = await finance.call("familySettings.get", {});
      const month = args.month ?? currentBudgetMonth(todayIn(settings.timezone), settings.month_start_day);
      const period = periodOfMonth(month, settings.month_start_day);
      const { budgets } = await finance.call("budgets.list", { start_date: period.start, end_date: period.end, per_page: 5 });
      const summary = budgets.find((budget) => budget.start_date === period.start);
      if (!summary)
        throw new ToolRefusal("not_found", `No budget has been made for ${month} (${period.start} to ${period.end}); the user can start one in the app.`);

      const [budget, lines, statement] = await Promise.all([
        finance.call("budgets.get", { id: summary.id }),
        // Every line's figures in one finance call (one computation of the period for all of them).
        finance.call("insights.budgetLines", { budget_id: summary.id }).then((answer) => answer.budget_categories),
        finance.call("insights.incomeStatement", { start_date: summary.start_date, end_date: summary.end_date, group_by: "category" }),
      ]);
      const spent = new Set(statement.spending.map((group) => group.id).filter((id): id is string => id !== null));
      const namesById = new Map(lines.map((line) => [line.category.id, line.category.name]));
      const details = lines.filter(
        (line) =>
          line.display_budgeted_spending_cents > 0 ||
          spent.has(line.category.id) ||
          lines.some((child) => child.category.parent_id === line.category.id && spent.has(child.category.id)),
      );

      const lineOf = (detail: BudgetCategory): AssistantBudgetLine => {
        const parentId = detail.category.parent_id;
        return {
          id: detail.category.id,
          name: detail.category.name,
          parent: parentId ? { id: parentId, name: namesById.get(parentId) ?? "Unknown" } : null,
          inherits_parent_budget: detail.inherits_parent_budget,
          budgeted: detail.display_budgeted_spending,
          budgeted_cents: detail.display_budgeted_spending_cents,
          actual_spending: detail.actual_spending,
          actual_spending_cents: detail.actual_spending_cents,
          available_to_spend: detail.available_to_spend,
          available_to_spend_cents: detail.available_to_spend_cents,
          over_budget: detail.available_to_spend_cents < 0,
        };
      };
      return {
        name: budget.name,
        start_date: budget.start_date,
        end_date: budget.end_date,
        currency: budget.currency,
        initialized: budget.initialized,
        budgeted_spending: budget.budgeted_spending,
        budgeted_spending_cents: budget.budgeted_spending_cents,
        expected_income: budget.expected_income,
        expected_income_cents: budget.expected_income_cents,
        allocated_spending: budget.allocated_spending,
        allocated_spending_cents: budget.allocated_spending_cents,
        actual_spending: budget.actual_spending,
        actual_spending_cents: budget.actual_spending_cents,
        actual_income: budget.actual_income,
        actual_income_cents: budget.actual_income_cents,
        available_to_spend: budget.available_to_spend,
        available_to_spend_cents: budget.available_to_spend_cents,
        categories: details.map(lineOf).sort((a, b) => b.actual_spending_cents - a.actual_spending_cents || a.name.localeCompare(b.name)),
        missing_exchange_rates: budget.missing_exchange_rates,
      };
    },
  };
}
