import { z } from "zod";
import { AmountInputSchema, CentsSchema, CurrencyCodeSchema } from "../money";
import { BooleanParamSchema, DateSchema, PageQuerySchema, PaginationSchema, RecordRefSchema, TimestampSchema, UuidSchema } from "../primitives";
import { AccountSummarySchema } from "./accounts";

export const RECURRING_STATUSES = ["active", "inactive"] as const;

/** Sure's _recurring_transaction.json.jbuilder: amounts as money pairs, the expected ones null until known. */
export const RecurringTransactionSchema = z.object({
  id: UuidSchema,
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  expected_day_of_month: z.number().int().min(1).max(31),
  last_occurrence_date: DateSchema,
  next_expected_date: DateSchema,
  status: z.enum(RECURRING_STATUSES),
  occurrence_count: z.number().int().min(0),
  name: z.string().nullable(),
  manual: z.boolean(),
  expected_amount_min: z.string().nullable(),
  expected_amount_min_cents: CentsSchema.nullable(),
  expected_amount_max: z.string().nullable(),
  expected_amount_max_cents: CentsSchema.nullable(),
  expected_amount_avg: z.string().nullable(),
  expected_amount_avg_cents: CentsSchema.nullable(),
  account: AccountSummarySchema.nullable(),
  merchant: z.object({ id: UuidSchema, name: z.string() }).nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type RecurringTransaction = z.infer<typeof RecurringTransactionSchema>;

export const RecurringTransactionCollectionSchema = z.object({
  recurring_transactions: z.array(RecurringTransactionSchema),
  pagination: PaginationSchema,
});

export const RecurringTransactionListQuerySchema = PageQuerySchema.extend({
  status: z.enum(RECURRING_STATUSES, { message: "status must be active or inactive" }).optional().describe("Filter by recurring status"),
  account_id: UuidSchema.optional().describe("Filter by account ID"),
});

/** Rails' full message for a missing value: absent, null and blank text all read as blank. */
const isBlank = (input: unknown) => input === undefined || input === null || (typeof input === "string" && input.trim() === "");
const blankOr = (label: string, otherwise: string) => (issue: { input?: unknown }) => (isBlank(issue.input) ? `${label} can't be blank` : otherwise);

/** A ledger date (1970 to 2099, as entries carry) that Sure requires: missing or null is "can't be blank". */
function requiredDate(label: string) {
  const message = `${label} must be a date (YYYY-MM-DD) between 1970-01-01 and 2099-12-31`;
  return z.iso
    .date({ error: blankOr(label, message) })
    .refine((date) => date >= "1970-01-01" && date <= "2099-12-31", { message })
    .meta({ format: "date" });
}

/** A whole number as Rails casts it: a JSON integer or its digits as text ("15"). */
function wholeNumber(label: string, { min, max, minMessage }: { min: number; max: number; minMessage: string }) {
  return z
    .preprocess(
      (value) => (typeof value === "string" && /^\s*[+-]?\d{1,12}\s*$/.test(value) ? Number(value) : value),
      z
        .number({ error: blankOr(label, `${label} is not a number`) })
        .int({ message: `${label} must be an integer` })
        .min(min, { message: minMessage })
        .max(max, { message: `${label} must be less than or equal to ${max}` }),
    )
    .meta({ type: "integer", minimum: min, maximum: max });
}

/** Sure validates the day as greater than 0 and at most 31. */
const DayOfMonth = wholeNumber("Expected day of month", { min: 1, max: 31, minMessage: "Expected day of month must be greater than 0" });
/** The column is a 4-byte integer. */
const OccurrenceCount = wholeNumber("Occurrence count", { min: 0, max: 2_147_483_647, minMessage: "Occurrence count must be greater than or equal to 0" });
const Status = z.enum(RECURRING_STATUSES, { error: blankOr("Status", "Status is not included in the list") });

/** A signed amount (income is negative, as Sure stores it); blank is Sure's "can't be blank". */
function amount(label: string) {
  return z
    .union([z.number(), z.string()], { error: blankOr(label, `${label} must be a number`) })
    .refine((value) => !isBlank(value), { message: `${label} can't be blank`, abort: true })
    .pipe(AmountInputSchema);
}

/** An optional amount: absent or null leaves it unknown. */
const ExpectedAmount = z.preprocess((value) => (isBlank(value) ? null : value), AmountInputSchema.nullable()).optional();

/** An account or merchant reference: blank is none (Sure's `return nil if blank?`), text that is no UUID names no record (404). */
const OptionalRef = z.preprocess((value) => (isBlank(value) ? null : value), RecordRefSchema.nullable()).optional();

/** Entries' names are at most 500 characters; a recurring transaction names one of them. */
const Name = z
  .string()
  .trim()
  .max(500, { message: "Name is too long (maximum is 500 characters)" })
  .transform((name) => (name === "" ? null : name))
  .nullable()
  .optional();

/** POST /api/v1/recurring_transactions: Sure's permitted create params plus the account and merchant it looks up. */
export const CreateRecurringTransactionBodySchema = z
  .object({
    recurring_transaction: z.object({
      account_id: OptionalRef,
      merchant_id: OptionalRef,
      name: Name,
      amount: amount("Amount"),
      currency: z
        .string({ error: blankOr("Currency", "Currency must be a three-letter ISO 4217 code") })
        .refine((value) => !isBlank(value), { message: "Currency can't be blank", abort: true })
        .transform((value) => value.trim().toUpperCase())
        .pipe(CurrencyCodeSchema),
      expected_day_of_month: DayOfMonth,
      last_occurrence_date: requiredDate("Last occurrence date"),
      next_expected_date: requiredDate("Next expected date"),
      status: Status.optional().describe("Default active"),
      occurrence_count: OccurrenceCount.optional().describe("Default 0"),
      manual: BooleanParamSchema.nullable().optional().describe("Default true (also when null)"),
      expected_amount_min: ExpectedAmount,
      expected_amount_max: ExpectedAmount,
      expected_amount_avg: ExpectedAmount,
    }),
  })
  // A base error sits on the body itself, so its message stands alone as Rails words it; it is
  // checked even when other fields failed, as Rails lists every error at once.
  .refine(
    (body) => {
      const input = (body as { recurring_transaction?: { merchant_id?: unknown; name?: unknown } }).recurring_transaction;
      return typeof input !== "object" || input === null || !isBlank(input.merchant_id) || !isBlank(input.name);
    },
    { message: "Either merchant or name must be present", when: () => true },
  );

/**
 * PATCH /api/v1/recurring_transactions/{id}: only status, expected day and next expected date
 * (Sure's permitted update params); other fields are ignored. An empty object is refused, as
 * Rails' `params.require` refuses it.
 */
export const UpdateRecurringTransactionBodySchema = z.object({
  recurring_transaction: z
    .looseObject({
      status: Status.optional(),
      expected_day_of_month: DayOfMonth.optional(),
      next_expected_date: requiredDate("Next expected date").optional(),
    })
    .refine((fields) => Object.keys(fields).length > 0, { message: "recurring_transaction must not be empty" }),
});
