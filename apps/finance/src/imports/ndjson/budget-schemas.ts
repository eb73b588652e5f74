import { z } from "zod";
import { optionalCentsIn, OptionalDecimalTextSchema, centsIn } from "./amounts";
import { ImportDateSchema, OptionalCurrencySchema, OptionalSourceIdSchema, SourceIdSchema } from "./field-schemas";
import type { ReadContext } from "./read-context";
import type { SureBudgetCategoryValues, SureBudgetValues } from "./record-values";

/** A Budget record as import_budgets reads it: its currency, else the family's. */
export function budgetSchema(context: ReadContext) {
  return z
    .object({
      id: SourceIdSchema,
      start_date: ImportDateSchema,
      end_date: ImportDateSchema,
      budgeted_spending: OptionalDecimalTextSchema,
      expected_income: OptionalDecimalTextSchema,
      currency: OptionalCurrencySchema,
    })
    .transform((data, ctx): Omit<SureBudgetValues, "line"> => {
      const currency = data.currency ?? context.defaultCurrency;
      if (data.end_date < data.start_date) ctx.addIssue({ code: "custom", path: ["end_date"], message: "must not be before start_date" });
      const spending = optionalCentsIn(data.budgeted_spending, currency, "exact", ctx, ["budgeted_spending"]);
      const income = optionalCentsIn(data.expected_income, currency, "exact", ctx, ["expected_income"]);
      if (data.end_date < data.start_date || (data.budgeted_spending !== null && spending === null) || (data.expected_income !== null && income === null)) {
        return z.NEVER;
      }
      return {
        source_id: data.id,
        start_date: data.start_date,
        end_date: data.end_date,
        budgeted_spending_cents: spending,
        expected_income_cents: income,
        currency,
      };
    });
}

/** A BudgetCategory record as import_budget_categories reads it: its currency, else its budget's; no amount is 0 (nil.to_d). */
export function budgetCategorySchema(context: ReadContext) {
  return z
    .object({
      id: OptionalSourceIdSchema,
      budget_id: SourceIdSchema,
      category_id: SourceIdSchema,
      budgeted_spending: OptionalDecimalTextSchema,
      currency: OptionalCurrencySchema,
    })
    .transform((data, ctx): Omit<SureBudgetCategoryValues, "line"> => {
      const currency = data.currency ?? context.budgetCurrencies.get(data.budget_id) ?? context.defaultCurrency;
      const spending = centsIn(data.budgeted_spending ?? "0", currency, "exact", ctx, ["budgeted_spending"]);
      if (spending === null) return z.NEVER;
      return { source_id: data.id, budget_id: data.budget_id, category_id: data.category_id, budgeted_spending_cents: spending, currency };
    });
}
