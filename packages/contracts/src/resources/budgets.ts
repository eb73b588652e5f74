import { z } from "zod";
import { AmountInputSchema, CentsSchema } from "../money";
import { BooleanParamSchema, DateInputSchema, DateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

const nullableMoney = { budgeted_spending: z.string().nullable(), budgeted_spending_cents: CentsSchema.nullable() };

/** Sure's BudgetSummary (the list item): what was planned, without the period's actuals. */
export const BudgetSummarySchema = z.object({
  id: UuidSchema,
  start_date: DateSchema,
  end_date: DateSchema,
  name: z.string(),
  currency: z.string(),
  /** A budget is initialized once its budgeted spending has been set. */
  initialized: z.boolean(),
  current: z.boolean(),
  ...nullableMoney,
  expected_income: z.string().nullable(),
  expected_income_cents: CentsSchema.nullable(),
  allocated_spending: z.string(),
  allocated_spending_cents: CentsSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type BudgetSummary = z.infer<typeof BudgetSummarySchema>;

/**
 * Amounts in other currencies converted at the family's rate on or before each entry's day; an
 * entry with no such rate is left out and its currency listed here (never converted at 1).
 */
export const MissingBudgetRatesSchema = z.array(z.object({ from_currency: z.string(), to_currency: z.string(), entries_count: z.number().int() }));

/** Sure's Budget (detail): the summary plus the period's actuals and what is left. */
export const BudgetSchema = BudgetSummarySchema.extend({
  actual_spending: z.string(),
  actual_spending_cents: CentsSchema,
  actual_income: z.string(),
  actual_income_cents: CentsSchema,
  available_to_spend: z.string(),
  available_to_spend_cents: CentsSchema,
  available_to_allocate: z.string(),
  available_to_allocate_cents: CentsSchema,
  missing_exchange_rates: MissingBudgetRatesSchema,
});
export type Budget = z.infer<typeof BudgetSchema>;

export const BudgetCollectionSchema = z.object({ budgets: z.array(BudgetSummarySchema), pagination: PaginationSchema });

export const BudgetListQuerySchema = PageQuerySchema.extend({
  /** Budgets starting on or after this day. */
  start_date: DateInputSchema.optional(),
  /** Budgets ending on or before this day. */
  end_date: DateInputSchema.optional(),
});

/** Our extension: the budget of the period containing `start_date` (made once; asking again answers the same budget). */
export const CreateBudgetBodySchema = z.object({ budget: z.object({ start_date: DateInputSchema }) });

/** A planned amount: zero or more, or null to clear it. */
const PlannedAmountSchema = AmountInputSchema.refine((text) => !text.startsWith("-"), { message: "must be zero or more" }).nullable();

export const UpdateBudgetBodySchema = z.object({
  budget: z
    .object({ budgeted_spending: PlannedAmountSchema.optional(), expected_income: PlannedAmountSchema.optional() })
    .refine((changes) => Object.keys(changes).length > 0, { message: "Provide budgeted_spending or expected_income" }),
});

/** The category a budget category is for. `iconset_icon` is the spec's name; `lucide_icon` Sure's, kept for its clients. */
export const BudgetCategoryRefSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  color: z.string(),
  iconset_icon: z.string(),
  lucide_icon: z.string(),
  parent_id: UuidSchema.nullable(),
});

/** Sure's BudgetCategorySummary with the spec's rollover flag. */
export const BudgetCategorySummarySchema = z.object({
  id: UuidSchema,
  budget_id: UuidSchema,
  currency: z.string(),
  subcategory: z.boolean(),
  /** A subcategory without its own limit spends from its parent's. */
  inherits_parent_budget: z.boolean(),
  rollover_enabled: z.boolean(),
  budgeted_spending: z.string(),
  budgeted_spending_cents: CentsSchema,
  display_budgeted_spending: z.string(),
  display_budgeted_spending_cents: CentsSchema,
  category: BudgetCategoryRefSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type BudgetCategorySummary = z.infer<typeof BudgetCategorySummarySchema>;

/** The detail adds the period's actuals, the spec's rolled-over amount, and what is left to spend. */
export const BudgetCategorySchema = BudgetCategorySummarySchema.extend({
  rolled_over_amount: z.string(),
  rolled_over_amount_cents: CentsSchema,
  actual_spending: z.string(),
  actual_spending_cents: CentsSchema,
  available_to_spend: z.string(),
  available_to_spend_cents: CentsSchema,
});
export type BudgetCategory = z.infer<typeof BudgetCategorySchema>;

/** Every line of one budget with its figures (finance's internal insights.budgetLines, for the assistant). */
export const BudgetLinesSchema = z.object({ budget_categories: z.array(BudgetCategorySchema) });

export const BudgetCategoryCollectionSchema = z.object({ budget_categories: z.array(BudgetCategorySummarySchema), pagination: PaginationSchema });

export const BudgetCategoryListQuerySchema = PageQuerySchema.extend({
  budget_id: z.uuid({ message: "budget_id must be a valid UUID" }).optional(),
  category_id: z.uuid({ message: "category_id must be a valid UUID" }).optional(),
  /** Budget categories whose budget starts on or after this day. */
  start_date: DateInputSchema.optional(),
  /** Budget categories whose budget ends on or before this day. */
  end_date: DateInputSchema.optional(),
});

export const UpdateBudgetCategoryBodySchema = z.object({
  budget_category: z
    .object({
      budgeted_spending: AmountInputSchema.refine((text) => !text.startsWith("-"), { message: "must be zero or more" }).optional(),
      rollover_enabled: BooleanParamSchema.optional(),
    })
    .refine((changes) => Object.keys(changes).length > 0, { message: "Provide budgeted_spending or rollover_enabled" }),
});
