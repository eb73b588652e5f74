import { z } from "zod";
import { DateInputSchema, DateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";
import { answerWith } from "../route";
import { AmountInputSchema, trimTrailing } from "../money";
import { CurrencyInputSchema } from "./accounts";

/** Sure's Money: a plain decimal string, the currency and the display string. */
export const MoneySchema = z.object({ amount: z.string(), currency: z.string(), formatted: z.string() });

/**
 * Sure's BalanceSheet in the family currency. An account whose currency has no stored rate is
 * left out of the totals and listed in `missing_exchange_rates` (never converted at 1).
 */
export const BalanceSheetSchema = z.object({
  currency: z.string(),
  net_worth: MoneySchema,
  assets: MoneySchema,
  liabilities: MoneySchema,
  missing_exchange_rates: z.array(z.object({ from_currency: z.string(), to_currency: z.string(), account_ids: z.array(UuidSchema) })),
});

/** A family's stored exchange rate: 1 `from_currency` = `rate` `to_currency` from `date` on. */
export const ExchangeRateSchema = z.object({
  id: UuidSchema,
  from_currency: z.string(),
  to_currency: z.string(),
  date: DateSchema,
  rate: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});

/** Digits a stored rate keeps on either side of the point (the column is Decimal(24, 12)). */
export const RATE_DIGITS = 12;

/**
 * Whether a rate's text fits the column exactly: at most 12 digits before the point (leading zeros
 * aside) and 12 after (trailing zeros aside). Anything longer would overflow it, or be rounded,
 * "0.0000000000001" down to 0, a rate no amount can be converted at.
 */
function fitsRateColumn(text: string): boolean {
  const [whole = "", fraction = ""] = text.replace(/^[+-]/, "").split(".");
  return trimLeading(whole, "0").length <= RATE_DIGITS && trimTrailing(fraction, "0").length <= RATE_DIGITS;
}

function trimLeading(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) start++;
  return text.slice(start);
}

/** A rate as clients send it (a JSON number or a decimal string): above 0 and exact at the column's 12 decimals. */
export const RateInputSchema = AmountInputSchema.refine(fitsRateColumn, {
  message: `Rate has at most ${RATE_DIGITS} digits before the point and ${RATE_DIGITS} after`,
  abort: true,
}).refine((text) => /[1-9]/.test(text) && !text.startsWith("-"), { message: "rate must be greater than 0" });

/** Sure's body: top-level from, to, date and rate; posting a pair and date again updates the rate. */
export const UpsertExchangeRateBodySchema = z
  .object({
    from: CurrencyInputSchema,
    to: CurrencyInputSchema,
    date: DateInputSchema,
    rate: RateInputSchema,
  })
  .refine((r) => r.from !== r.to, { message: "from and to must be different currencies" });

export const ExchangeRateListQuerySchema = PageQuerySchema.extend({
  from: CurrencyInputSchema.optional(),
  to: CurrencyInputSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
});

export const ExchangeRateCollectionSchema = z.object({ exchange_rates: z.array(ExchangeRateSchema), pagination: PaginationSchema });
export const UpsertExchangeRateAnswerSchema = answerWith(ExchangeRateSchema, [201, 200]);
