import { z } from "zod";
import { centsIn, DecimalTextSchema } from "./amounts";
import { enumOrFallback, ImportDateSchema, OptionalCurrencySchema, optionalNameSchema, OptionalSourceIdSchema, SourceIdSchema } from "./field-schemas";
import { currencyOf, type ReadContext } from "./read-context";
import type { SureValuationValues } from "./record-values";

const NAME_MAX = 500;

/** A Valuation record as import_valuations reads it: an unknown kind is a reconciliation, no name is "Valuation". */
export function valuationSchema(context: ReadContext) {
  return z
    .object({
      id: OptionalSourceIdSchema,
      account_id: SourceIdSchema,
      date: ImportDateSchema,
      amount: DecimalTextSchema,
      currency: OptionalCurrencySchema,
      name: optionalNameSchema(NAME_MAX),
      kind: enumOrFallback(["reconciliation", "opening_anchor", "current_anchor"], "reconciliation"),
    })
    .transform((data, ctx): Omit<SureValuationValues, "line"> => {
      const currency = currencyOf(context, data.currency, data.account_id);
      const amount = centsIn(data.amount, currency, "exact", ctx, ["amount"]);
      if (amount === null) return z.NEVER;
      return {
        source_id: data.id,
        account_id: data.account_id,
        date: data.date,
        amount_cents: amount,
        currency,
        name: data.name ?? "Valuation",
        kind: data.kind,
      };
    });
}
