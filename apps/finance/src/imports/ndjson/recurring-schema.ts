import { z } from "zod";
import { centsIn, DecimalTextSchema, OptionalDecimalTextSchema, optionalCentsIn } from "./amounts";
import {
  booleanSchema,
  enumOrFallback,
  ImportDateSchema,
  integerSchema,
  OptionalCurrencySchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  presence,
  SourceIdSchema,
} from "./field-schemas";
import type { ReadContext } from "./read-context";
import type { SureRecurringTransactionValues } from "./record-values";

const NAME_MAX = 500;
/** Occurrences counted at most: decades of daily payments. */
const MAX_OCCURRENCES = 1_000_000;

/**
 * A RecurringTransaction record as import_recurring_transactions reads it. Where Sure skips the
 * record silently (an expected day outside 1 to 31, a date it cannot read), it is refused here, so
 * the preflight says so. The expected range and average are Sure's computations, rounded.
 */
export function recurringTransactionSchema(context: ReadContext) {
  return z
    .object({
      id: SourceIdSchema,
      account_id: OptionalSourceIdSchema,
      merchant_id: OptionalSourceIdSchema,
      amount: DecimalTextSchema,
      currency: OptionalCurrencySchema,
      expected_day_of_month: integerSchema(1, 31),
      last_occurrence_date: ImportDateSchema,
      next_expected_date: ImportDateSchema,
      status: enumOrFallback(["active", "inactive"], "active"),
      occurrence_count: z.preprocess(presence, integerSchema(0, MAX_OCCURRENCES).optional()).transform((count) => count ?? 0),
      name: optionalNameSchema(NAME_MAX),
      manual: booleanSchema(false),
      expected_amount_min: OptionalDecimalTextSchema,
      expected_amount_max: OptionalDecimalTextSchema,
      expected_amount_avg: OptionalDecimalTextSchema,
    })
    .transform((data, ctx): Omit<SureRecurringTransactionValues, "line"> => {
      // Sure takes the record's currency, else the family's (not the account's).
      const currency = data.currency ?? context.defaultCurrency;
      const amount = centsIn(data.amount, currency, "exact", ctx, ["amount"]);
      const min = optionalCentsIn(data.expected_amount_min, currency, "rounded", ctx, ["expected_amount_min"]);
      const max = optionalCentsIn(data.expected_amount_max, currency, "rounded", ctx, ["expected_amount_max"]);
      const avg = optionalCentsIn(data.expected_amount_avg, currency, "rounded", ctx, ["expected_amount_avg"]);
      const failed = (decimal: string | null, cents: bigint | null) => decimal !== null && cents === null;
      if (amount === null || failed(data.expected_amount_min, min) || failed(data.expected_amount_max, max) || failed(data.expected_amount_avg, avg)) {
        return z.NEVER;
      }
      return {
        source_id: data.id,
        account_id: data.account_id,
        merchant_id: data.merchant_id,
        amount_cents: amount,
        currency,
        expected_day_of_month: data.expected_day_of_month,
        last_occurrence_date: data.last_occurrence_date,
        next_expected_date: data.next_expected_date,
        status: data.status,
        occurrence_count: data.occurrence_count,
        name: data.name,
        manual: data.manual,
        expected_amount_min_cents: min,
        expected_amount_max_cents: max,
        expected_amount_avg_cents: avg,
      };
    });
}
