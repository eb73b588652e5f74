// contract complete
import { z } from "zod";
import { CentsSchema } from "../money";
import { DateInputSchema, DateSchema, HexColorSchema, MAX_PAGE, MAX_PER_PAGE, UuidSchema } from "../primitives";

// The chat assistant's tools: what a model may call to answer from the family's own data. Each
// has arguments (given to the model as JSON Schema, so only plain types: no transforms) and a
// result kept compact for a model to read. Money is a pair: a display string and `<name>_cents`,
// integer minor units; dates are YYYY-MM-DD; every thing named carries its id and its name.

/** A record a reply can name: its id (for filters and updates) and its name (to say). */
const RefSchema = z.object({ id: UuidSchema, name: z.string() });

/** A money pair spread into a result object: `{ [name]: "$1,234.56", [name_cents]: 123456 }`. */
function money<N extends string>(name: N) {
  return { [name]: z.string(), [`${name}_cents`]: CentsSchema } as { [K in N]: z.ZodString } & { [K in `${N}_cents`]: typeof CentsSchema };
}

/** A money pair that may be unset (a budget not planned yet): both parts null then. */
function nullableMoney<N extends string>(name: N) {
  return { [name]: z.string().nullable(), [`${name}_cents`]: CentsSchema.nullable() } as { [K in N]: z.ZodNullable<z.ZodString> } & {
    [K in `${N}_cents`]: z.ZodNullable<typeof CentsSchema>;
  };
}

/** The most rows a whole-list tool (categories, merchants, tags, accounts) returns; `truncated` says when there were more. */
export const ASSISTANT_LIST_CAP = 500;

const PageArgs = {
  page: z.number().int().min(1).max(MAX_PAGE).default(1).describe("Page number, from 1 (default 1)"),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE).default(25).describe(`Rows per page, 1 to ${MAX_PER_PAGE} (default 25); ask for few when few will do`),
};

const PageResult = {
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total_count: z.number().int().min(0),
  total_pages: z.number().int().min(0),
};

/** A whole list, capped at ASSISTANT_LIST_CAP rows. */
const ListResult = {
  total_count: z.number().int().min(0),
  truncated: z.boolean().describe(`True when there are more than ${ASSISTANT_LIST_CAP} and only the first ${ASSISTANT_LIST_CAP} are listed`),
};

/** Amounts in a currency with no stored rate to the family's: left out of totals (never converted at 1). */
const MissingRatesSchema = z.array(z.object({ from_currency: z.string(), to_currency: z.string(), entries_count: z.number().int().min(0) }));

/** `{ error, hint }`: what a tool answers instead of data when it cannot run; the hint says how to call it right. */
export const AssistantToolErrorSchema = z.object({ error: z.string(), hint: z.string() });
export type AssistantToolError = z.infer<typeof AssistantToolErrorSchema>;

// get_accounts

export const GetAccountsArgsSchema = z.object({
  include_disabled: z.boolean().default(false).describe("Also list disabled (closed) accounts (default false)"),
});

export const AssistantAccountSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  account_type: z.string().describe("depository, investment, crypto, property, vehicle, credit_card, loan, other_asset or other_liability"),
  subtype: z.string().nullable(),
  classification: z.enum(["asset", "liability"]),
  status: z.string(),
  currency: z.string(),
  ...money("balance"),
  institution_name: z.string().nullable(),
});

export const GetAccountsResultSchema = z.object({ accounts: z.array(AssistantAccountSchema), ...ListResult });

// get_transactions

const IdList = (what: string) => z.array(UuidSchema).min(1).max(100).optional().describe(`Only transactions with one of these ${what} ids`);

export const GetTransactionsArgsSchema = z.object({
  ...PageArgs,
  start_date: DateInputSchema.optional().describe("First day, YYYY-MM-DD (inclusive)"),
  end_date: DateInputSchema.optional().describe("Last day, YYYY-MM-DD (inclusive)"),
  account_ids: IdList("account (from get_accounts)"),
  category_ids: IdList("category (from get_categories)"),
  merchant_ids: IdList("merchant (from get_merchants)"),
  tag_ids: IdList("tag (from get_tags)"),
  type: z.enum(["income", "expense"]).optional().describe("Only money in (income) or only money out (expense)"),
  search: z.string().trim().min(1).max(200).optional().describe("Text to find in the transaction's name, notes or merchant"),
  min_amount: z.number().nonnegative().optional().describe("Smallest amount size in major units of the transaction's currency, e.g. 50 for $50.00"),
  max_amount: z.number().nonnegative().optional().describe("Largest amount size in major units of the transaction's currency"),
});

export const AssistantTransactionSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  name: z.string(),
  ...money("amount"),
  currency: z.string(),
  classification: z.enum(["income", "expense"]).describe("income: money in; expense: money out (amount is always the size)"),
  kind: z.string().describe("standard, or a transfer/payment kind (funds_movement, cc_payment, loan_payment, one_time, investment_contribution)"),
  excluded: z.boolean().describe("Excluded from budgets and reports"),
  account: RefSchema,
  category: RefSchema.nullable(),
  merchant: RefSchema.nullable(),
  tags: z.array(RefSchema),
  notes: z.string().nullable(),
});

export const GetTransactionsResultSchema = z.object({ ...PageResult, transactions: z.array(AssistantTransactionSchema) });

// get_balance_sheet

export const GetBalanceSheetArgsSchema = z.object({});

export const GetBalanceSheetResultSchema = z.object({
  currency: z.string(),
  ...money("net_worth"),
  ...money("assets"),
  ...money("liabilities"),
  missing_exchange_rates: z
    .array(z.object({ from_currency: z.string(), to_currency: z.string(), account_ids: z.array(UuidSchema) }))
    .describe("Accounts left out of the totals because their currency has no rate to the family's"),
});

// get_income_statement (also the answer of finance's internal insights.incomeStatement)

export const IncomeStatementGroupBySchema = z.enum(["category", "merchant", "tag"]);

export const GetIncomeStatementArgsSchema = z
  .object({
    start_date: DateInputSchema.describe("First day of the period, YYYY-MM-DD (inclusive)"),
    end_date: DateInputSchema.describe("Last day of the period, YYYY-MM-DD (inclusive)"),
    group_by: IncomeStatementGroupBySchema.default("category").describe("Break income and spending down by category (default), merchant or tag"),
    category_id: UuidSchema.nullable().optional().describe("Only this category (from get_categories); null for uncategorized only"),
    merchant_id: UuidSchema.optional().describe("Only this merchant (from get_merchants)"),
    tag_id: UuidSchema.optional().describe("Only transactions with this tag (from get_tags)"),
  })
  .refine((args) => args.start_date <= args.end_date, { message: "start_date must be on or before end_date", path: ["end_date"] });

export const IncomeStatementGroupSchema = z.object({
  id: UuidSchema.nullable().describe("The category, merchant or tag id; null for none (Uncategorized, No merchant, Untagged)"),
  name: z.string(),
  ...money("amount"),
  transactions_count: z.number().int().min(0),
});

export const GetIncomeStatementResultSchema = z.object({
  start_date: DateSchema,
  end_date: DateSchema,
  currency: z.string().describe("The family's currency: every amount here is in it"),
  group_by: IncomeStatementGroupBySchema,
  ...money("income_total"),
  ...money("spending_total"),
  ...money("net"),
  income: z.array(IncomeStatementGroupSchema).describe("Largest first"),
  spending: z.array(IncomeStatementGroupSchema).describe("Largest first"),
  missing_exchange_rates: MissingRatesSchema,
});

// get_budget

export const GetBudgetArgsSchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "month must look like 2025-03" })
    .optional()
    .describe("The budget month, YYYY-MM (default: the current month); with a custom month start day, the budget period starting in that month"),
});

export const AssistantBudgetLineSchema = z.object({
  id: UuidSchema.describe("The category id"),
  name: z.string(),
  parent: RefSchema.nullable(),
  inherits_parent_budget: z.boolean().describe("A subcategory without a limit of its own spends from its parent's"),
  ...money("budgeted"),
  ...money("actual_spending"),
  ...money("available_to_spend"),
  over_budget: z.boolean(),
});

export const GetBudgetResultSchema = z.object({
  name: z.string(),
  start_date: DateSchema,
  end_date: DateSchema,
  currency: z.string(),
  initialized: z.boolean().describe("False until a total budget has been set for the period"),
  ...nullableMoney("budgeted_spending"),
  ...nullableMoney("expected_income"),
  ...money("allocated_spending"),
  ...money("actual_spending"),
  ...money("actual_income"),
  ...money("available_to_spend"),
  categories: z.array(AssistantBudgetLineSchema),
  missing_exchange_rates: MissingRatesSchema,
});

// get_holdings

export const GetHoldingsArgsSchema = z.object({
  ...PageArgs,
  date: DateInputSchema.optional().describe("The day to show holdings on, YYYY-MM-DD (default: the latest day there are holdings)"),
  account_id: UuidSchema.optional().describe("Only this investment or crypto account (from get_accounts)"),
});

export const AssistantHoldingSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  account: RefSchema,
  security: z.object({ id: UuidSchema, ticker: z.string(), name: z.string().nullable() }),
  qty: z.string(),
  price: z.string().describe("Unit price, formatted"),
  ...money("amount"),
  currency: z.string(),
  avg_cost: z.string().nullable().describe("Average buy price, formatted; null before any buy"),
});

export const GetHoldingsResultSchema = z.object({
  date: DateSchema.nullable().describe("The day shown; null when there are no holdings"),
  ...PageResult,
  holdings: z.array(AssistantHoldingSchema),
});

// get_recurring_transactions

export const GetRecurringTransactionsArgsSchema = z.object({
  status: z.enum(["active", "inactive", "all"]).default("active").describe("active (default), inactive or all"),
  account_id: UuidSchema.optional().describe("Only this account (from get_accounts)"),
});

export const AssistantRecurringTransactionSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  ...money("amount"),
  currency: z.string(),
  classification: z.enum(["income", "expense"]),
  status: z.enum(["active", "inactive"]),
  expected_day_of_month: z.number().int(),
  next_expected_date: DateSchema,
  last_occurrence_date: DateSchema,
  occurrence_count: z.number().int().min(0),
  manual: z.boolean().describe("Entered by the user rather than detected"),
  account: RefSchema.nullable(),
  merchant: RefSchema.nullable(),
});

export const GetRecurringTransactionsResultSchema = z.object({ recurring_transactions: z.array(AssistantRecurringTransactionSchema), ...ListResult });

// get_categories, get_merchants, get_tags

export const GetCategoriesArgsSchema = z.object({
  classification: z.enum(["income", "expense"]).optional().describe("Only income or only expense categories"),
});

export const AssistantCategorySchema = z.object({
  id: UuidSchema,
  name: z.string(),
  classification: z.enum(["income", "expense"]),
  parent: RefSchema.nullable(),
});

export const GetCategoriesResultSchema = z.object({ categories: z.array(AssistantCategorySchema), ...ListResult });

export const GetMerchantsArgsSchema = z.object({
  search: z.string().trim().min(1).max(100).optional().describe("Only merchants whose name contains this text (any case)"),
});

export const GetMerchantsResultSchema = z.object({ merchants: z.array(RefSchema), ...ListResult });

export const GetTagsArgsSchema = z.object({});

export const AssistantTagSchema = z.object({ id: UuidSchema, name: z.string(), color: z.string() });

export const GetTagsResultSchema = z.object({ tags: z.array(AssistantTagSchema), ...ListResult });

// create_tag, update_transaction (write scope only)

export const CreateTagArgsSchema = z.object({
  name: z.string().trim().min(1).max(100).describe("The tag's name, unique in the family"),
  color: HexColorSchema.optional().describe("Hex colour like #e99537 (default: chosen for you)"),
});

export const CreateTagResultSchema = z.object({ tag: AssistantTagSchema, message: z.string() });

export const UpdateTransactionArgsSchema = z
  .object({
    id: UuidSchema.describe("The transaction id (from get_transactions)"),
    category_id: UuidSchema.nullable().optional().describe("New category (from get_categories); null to clear; omit to keep"),
    tag_ids: z.array(UuidSchema).max(100).optional().describe("The full new set of tag ids (from get_tags); [] to clear; omit to keep"),
    notes: z.string().max(10_000).nullable().optional().describe("New notes; null to clear; omit to keep"),
  })
  .refine((args) => args.category_id !== undefined || args.tag_ids !== undefined || args.notes !== undefined, {
    message: "Give at least one of category_id, tag_ids or notes",
  });

export const UpdateTransactionResultSchema = z.object({ transaction: AssistantTransactionSchema, message: z.string() });

// The table

export type AssistantToolAccess = "read" | "write";

export interface AssistantToolDef<A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  /** For the model: what the tool is for and when to use it. */
  description: string;
  /** "write" tools are offered only to a credential with write scope. */
  access: AssistantToolAccess;
  args: A;
  result: R;
}

function tool<A extends z.ZodType, R extends z.ZodType>(def: AssistantToolDef<A, R>): AssistantToolDef<A, R> {
  return def;
}

export const ASSISTANT_TOOLS = {
  get_accounts: tool({
    description:
      "Lists the family's accounts with their current balances (in each account's own currency), type and whether each is an asset or a liability. Use it for questions about accounts and balances, and to find account ids for other tools' filters.",
    access: "read",
    args: GetAccountsArgsSchema,
    result: GetAccountsResultSchema,
  }),
  get_transactions: tool({
    description:
      "Searches the family's transactions, newest first, with optional filters (dates, accounts, categories, merchants, tags, income/expense, text, amount size) and pagination. Use it to find or list specific transactions. For totals over a period (how much was spent on X, income vs spending) use get_income_statement instead. Ids for the filters come from get_accounts, get_categories, get_merchants and get_tags.",
    access: "read",
    args: GetTransactionsArgsSchema,
    result: GetTransactionsResultSchema,
  }),
  get_balance_sheet: tool({
    description:
      "The family's net worth today: total assets, total liabilities and net worth in the family's currency. Use it for questions about net worth or what the family owns and owes; for the accounts behind it use get_accounts.",
    access: "read",
    args: GetBalanceSheetArgsSchema,
    result: GetBalanceSheetResultSchema,
  }),
  get_income_statement: tool({
    description:
      "Income and spending over a period, in the family's currency, broken down by category (default), merchant or tag, largest first, with totals and net (income minus spending). Transfers between the family's own accounts, payments and excluded transactions are left out. Use it for 'how much did we spend on X', 'what did we earn', 'where does our money go', and comparisons between periods (call it once per period). With group_by tag a transaction with several tags counts under each; the totals count it once.",
    access: "read",
    args: GetIncomeStatementArgsSchema,
    result: GetIncomeStatementResultSchema,
  }),
  get_budget: tool({
    description:
      "The family's budget for a month: planned spending and income, actual spending and income so far, what is left, and each budgeted category's limit, spending and remainder. Use it for 'how are we doing against the budget' and 'which categories are over budget'. Answers not_found when no budget was made for that month.",
    access: "read",
    args: GetBudgetArgsSchema,
    result: GetBudgetResultSchema,
  }),
  get_holdings: tool({
    description:
      "The family's investment holdings (securities held in investment and crypto accounts) on a day, by default the latest: quantity, price, value and average cost, paged. Use it for portfolio questions; values are in each holding's currency.",
    access: "read",
    args: GetHoldingsArgsSchema,
    result: GetHoldingsResultSchema,
  }),
  get_recurring_transactions: tool({
    description:
      "Recurring transactions (subscriptions, bills, salaries) with their usual amount, expected day of month and next expected date. Use it for 'what subscriptions do we pay', 'what bills are coming up'.",
    access: "read",
    args: GetRecurringTransactionsArgsSchema,
    result: GetRecurringTransactionsResultSchema,
  }),
  get_categories: tool({
    description:
      "The family's categories with their ids, income or expense classification and parent category. Use it to find a category's id for filters or updates.",
    access: "read",
    args: GetCategoriesArgsSchema,
    result: GetCategoriesResultSchema,
  }),
  get_merchants: tool({
    description: "The family's merchants with their ids, optionally only those whose name contains some text. Use it to find a merchant's id for filters.",
    access: "read",
    args: GetMerchantsArgsSchema,
    result: GetMerchantsResultSchema,
  }),
  get_tags: tool({
    description: "The family's tags with their ids and colours. Use it to find a tag's id for filters or before tagging a transaction.",
    access: "read",
    args: GetTagsArgsSchema,
    result: GetTagsResultSchema,
  }),
  create_tag: tool({
    description: "Creates a new tag for the family. Only when the user asks for it; check get_tags first, as names are unique.",
    access: "write",
    args: CreateTagArgsSchema,
    result: CreateTagResultSchema,
  }),
  update_transaction: tool({
    description:
      "Changes one transaction's category, tags or notes (only the fields given). Only when the user asks for it; find the transaction with get_transactions and the ids with get_categories and get_tags first.",
    access: "write",
    args: UpdateTransactionArgsSchema,
    result: UpdateTransactionResultSchema,
  }),
} as const satisfies Record<string, AssistantToolDef>;

export type AssistantToolName = keyof typeof ASSISTANT_TOOLS;
export const ASSISTANT_TOOL_NAMES = Object.keys(ASSISTANT_TOOLS) as AssistantToolName[];

/** The parsed arguments of a tool (defaults applied). */
export type AssistantToolArgs<N extends AssistantToolName> = z.output<(typeof ASSISTANT_TOOLS)[N]["args"]>;
/** A tool's result. */
export type AssistantToolResult<N extends AssistantToolName> = z.infer<(typeof ASSISTANT_TOOLS)[N]["result"]>;

export type GetAccountsArgs = z.infer<typeof GetAccountsArgsSchema>;
export type GetAccountsResult = z.infer<typeof GetAccountsResultSchema>;
export type AssistantAccount = z.infer<typeof AssistantAccountSchema>;
export type GetTransactionsArgs = z.infer<typeof GetTransactionsArgsSchema>;
export type GetTransactionsResult = z.infer<typeof GetTransactionsResultSchema>;
export type AssistantTransaction = z.infer<typeof AssistantTransactionSchema>;
export type GetBalanceSheetArgs = z.infer<typeof GetBalanceSheetArgsSchema>;
export type GetBalanceSheetResult = z.infer<typeof GetBalanceSheetResultSchema>;
export type IncomeStatementGroupBy = z.infer<typeof IncomeStatementGroupBySchema>;
export type GetIncomeStatementArgs = z.infer<typeof GetIncomeStatementArgsSchema>;
export type GetIncomeStatementResult = z.infer<typeof GetIncomeStatementResultSchema>;
export type IncomeStatementGroup = z.infer<typeof IncomeStatementGroupSchema>;
export type GetBudgetArgs = z.infer<typeof GetBudgetArgsSchema>;
export type GetBudgetResult = z.infer<typeof GetBudgetResultSchema>;
export type AssistantBudgetLine = z.infer<typeof AssistantBudgetLineSchema>;
export type GetHoldingsArgs = z.infer<typeof GetHoldingsArgsSchema>;
export type GetHoldingsResult = z.infer<typeof GetHoldingsResultSchema>;
export type AssistantHolding = z.infer<typeof AssistantHoldingSchema>;
export type GetRecurringTransactionsArgs = z.infer<typeof GetRecurringTransactionsArgsSchema>;
export type GetRecurringTransactionsResult = z.infer<typeof GetRecurringTransactionsResultSchema>;
export type AssistantRecurringTransaction = z.infer<typeof AssistantRecurringTransactionSchema>;
export type GetCategoriesArgs = z.infer<typeof GetCategoriesArgsSchema>;
export type GetCategoriesResult = z.infer<typeof GetCategoriesResultSchema>;
export type AssistantCategory = z.infer<typeof AssistantCategorySchema>;
export type GetMerchantsArgs = z.infer<typeof GetMerchantsArgsSchema>;
export type GetMerchantsResult = z.infer<typeof GetMerchantsResultSchema>;
export type GetTagsArgs = z.infer<typeof GetTagsArgsSchema>;
export type GetTagsResult = z.infer<typeof GetTagsResultSchema>;
export type AssistantTag = z.infer<typeof AssistantTagSchema>;
export type CreateTagArgs = z.infer<typeof CreateTagArgsSchema>;
export type CreateTagResult = z.infer<typeof CreateTagResultSchema>;
export type UpdateTransactionArgs = z.infer<typeof UpdateTransactionArgsSchema>;
export type UpdateTransactionResult = z.infer<typeof UpdateTransactionResultSchema>;
