import { z } from "zod";
import { answerWith } from "../route";
import { AmountInputSchema, CentsSchema } from "../money";
import {
  BooleanParamSchema,
  DateInputSchema,
  DateSchema,
  LedgerDateSchema,
  PageQuerySchema,
  PaginationSchema,
  RecordRefSchema,
  TimestampSchema,
  UuidSchema,
} from "../primitives";
import { AccountSummarySchema } from "./accounts";

/** Sure's Valuation: the account's whole balance on a date (the id is the entry's). */
export const ValuationSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  notes: z.string().nullable(),
  kind: z.enum(["reconciliation", "opening_anchor", "current_anchor"]),
  account: AccountSummarySchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Valuation = z.infer<typeof ValuationSchema>;

export const ValuationCollectionSchema = z.object({ valuations: z.array(ValuationSchema), pagination: PaginationSchema });

export const ValuationListQuerySchema = PageQuerySchema.extend({
  account_id: UuidSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
});

const Notes = z.string().max(10_000).nullable().optional();

export const CreateValuationBodySchema = z.object({
  valuation: z.object({
    account_id: RecordRefSchema,
    amount: AmountInputSchema,
    date: LedgerDateSchema,
    notes: Notes,
    upsert: BooleanParamSchema.optional(),
  }),
  upsert: BooleanParamSchema.optional().describe("When true and a valuation of that account and date existed, answer 200 instead of 201"),
});

/** Sure: amount and date change together (a valuation is a balance on a date). */
export const UpdateValuationBodySchema = z.object({
  valuation: z
    .object({ amount: AmountInputSchema.optional(), date: LedgerDateSchema.optional(), notes: Notes })
    .refine((v) => (v.amount === undefined) === (v.date === undefined), { message: "Provide both amount and date, or neither" }),
});

export const CreateValuationAnswerSchema = answerWith(ValuationSchema, [201, 200]);
