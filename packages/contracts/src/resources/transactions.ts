import { z } from "zod";
import { answerWith } from "../route";
import { AmountInputSchema, CentsSchema } from "../money";
import { DateInputSchema, DateSchema, LedgerDateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema, listQuery } from "../primitives";
import { AccountSummarySchema, CurrencyInputSchema } from "./accounts";

/** Sure's Transaction kinds: the transfer kinds come from the destination (see Transfer.kind_for_account). */
export const TransactionKindSchema = z.enum(["standard", "funds_movement", "cc_payment", "loan_payment", "one_time", "investment_contribution"]);

/** Sure's Transfer summary inside a transaction: the other side of the pair. */
export const TransactionTransferSchema = z.object({
  id: UuidSchema,
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  other_account: AccountSummarySchema.nullable(),
});

/**
 * Sure's Transaction. `amount` is signed as Sure stores it: positive is an outflow (expense),
 * negative an inflow (income). As Sure's view writes them for agents, `amount_cents` is the
 * size in minor units (never negative) and `signed_amount_cents` is positive for income and
 * negative for an expense.
 */
export const TransactionSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  amount: z.string(),
  amount_cents: CentsSchema.nonnegative().describe("The amount's size in minor units"),
  signed_amount_cents: CentsSchema.describe("Minor units, positive for income, negative for an expense"),
  currency: z.string(),
  name: z.string(),
  notes: z.string().nullable(),
  external_id: z.string().nullable(),
  source: z.string().nullable(),
  classification: z.enum(["income", "expense"]),
  kind: TransactionKindSchema,
  excluded: z.boolean(),
  account: AccountSummarySchema,
  category: z.object({ id: UuidSchema, name: z.string(), color: z.string(), icon: z.string() }).nullable(),
  merchant: z.object({ id: UuidSchema, name: z.string() }).nullable(),
  tags: z.array(z.object({ id: UuidSchema, name: z.string(), color: z.string() })),
  transfer: TransactionTransferSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const TransactionCollectionSchema = z.object({ transactions: z.array(TransactionSchema), pagination: PaginationSchema });

/** Sure's filters; `min_amount`/`max_amount` compare the amount's size, in the transaction's currency. */
export const TransactionListQuerySchema = PageQuerySchema.extend({
  account_id: UuidSchema.optional(),
  category_id: UuidSchema.optional(),
  merchant_id: UuidSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
  min_amount: AmountInputSchema.optional(),
  max_amount: AmountInputSchema.optional(),
  type: z.enum(["income", "expense"]).optional(),
  search: z.string().trim().max(200).optional(),
  account_ids: listQuery(UuidSchema).optional(),
  category_ids: listQuery(UuidSchema).optional(),
  merchant_ids: listQuery(UuidSchema).optional(),
  tag_ids: listQuery(UuidSchema).optional(),
});
export type TransactionListQuery = z.infer<typeof TransactionListQuerySchema>;

/** income/inflow make the amount an inflow (negative), expense/outflow an outflow (positive). */
export const TransactionNatureSchema = z.enum(["income", "expense", "inflow", "outflow"]);

const TransactionName = z.string().trim().min(1, { message: "Name can't be blank" }).max(500, { message: "Name is too long (maximum is 500 characters)" });
const Notes = z.string().max(10_000).nullable();

const TransactionFields = z.object({
  date: LedgerDateSchema,
  amount: AmountInputSchema,
  name: TransactionName,
  description: TransactionName.describe("Alternative to name"),
  notes: Notes,
  currency: CurrencyInputSchema.describe("Defaults to the account's currency"),
  category_id: UuidSchema.nullable(),
  merchant_id: UuidSchema.nullable(),
  nature: TransactionNatureSchema,
  tag_ids: z.array(UuidSchema).max(100),
  excluded: z.boolean(),
});

export const CreateTransactionBodySchema = z.object({
  transaction: TransactionFields.partial()
    .extend({
      account_id: UuidSchema,
      date: LedgerDateSchema,
      amount: AmountInputSchema,
      external_id: z.string().trim().min(1).max(255).optional(),
      source: z.string().trim().min(1).max(100).optional(),
    })
    .refine((t) => t.name !== undefined || t.description !== undefined, { message: "Name can't be blank", path: ["name"] })
    .refine((t) => t.source === undefined || t.external_id !== undefined, { message: "Source requires external_id", path: ["source"] }),
});
export type CreateTransactionInput = z.infer<typeof CreateTransactionBodySchema>["transaction"];

export const UpdateTransactionBodySchema = z.object({ transaction: TransactionFields.partial() });
export type UpdateTransactionInput = z.infer<typeof UpdateTransactionBodySchema>["transaction"];

/** 201 for a new transaction, 200 when `external_id` + `source` replay an existing one. */
export const CreateTransactionAnswerSchema = answerWith(TransactionSchema, [201, 200]);
