import type { InternalHandlers } from "@hearth/service-kit";
import { allLineDetailsOf } from "../budgets/budget-line-details";
import type { BudgetRepository } from "../budgets/budget-repository";
import { incomeStatementOf } from "./income-statement";
import type { IncomeStatementRepository } from "./income-statement-repository";

/** The assistant's read models over the ledger (internal: the chat service calls them for the asking actor). */
export function createInsightsHandlers(
  statements: IncomeStatementRepository,
  budgets: BudgetRepository,
  familyCurrency: (familyId: string) => Promise<string>,
): Pick<InternalHandlers<"finance">, "insights.incomeStatement" | "insights.budgetLines"> {
  return {
    "insights.budgetLines": async ({ ctx, input }) => ({ budget_categories: await allLineDetailsOf(budgets, ctx.actor.familyId, input.budget_id) }),
    "insights.incomeStatement": async ({ ctx, input }) => {
      const familyId = ctx.actor.familyId;
      const currency = await familyCurrency(familyId);
      const period = { start: input.start_date, end: input.end_date };
      const { grouped, totals } = await statements.flows(familyId, period, currency, input.group_by, input);
      const keys = [...new Set(grouped.map((row) => row.key).filter((key): key is string => key !== null))];
      const names = await statements.names(familyId, input.group_by, keys);
      return incomeStatementOf({ period, currency, groupBy: input.group_by, grouped, totals, names });
    },
  };
}
