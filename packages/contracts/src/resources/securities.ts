import { z } from "zod";
import { AmountInputSchema } from "../money";
import {
  BooleanParamSchema,
  DateInputSchema,
  DateSchema,
  LedgerDateSchema,
  PageQuerySchema,
  PaginationSchema,
  TimestampSchema,
  UuidSchema,
} from "../primitives";
import { CurrencyInputSchema } from "./accounts";

export const SecurityKindSchema = z.enum(["standard", "cash"]);

/** Sure's Security (the spec's shape): a family's security, as it trades and prices it. */
export const SecuritySchema = z.object({
  id: UuidSchema,
  ticker: z.string(),
  name: z.string().nullable(),
  kind: SecurityKindSchema,
  country_code: z.string().nullable(),
  exchange_mic: z.string().nullable(),
  exchange_acronym: z.string().nullable(),
  exchange_operating_mic: z.string().nullable(),
  exchange_name: z.string().nullable(),
  offline: z.boolean(),
  offline_reason: z.string().nullable(),
  website_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  first_provider_price_on: DateSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Security = z.infer<typeof SecuritySchema>;

export const SecurityCollectionSchema = z.object({ securities: z.array(SecuritySchema), pagination: PaginationSchema });

/**
 * A ticker as clients type it: trimmed, at most 40 characters, matched without regard to case.
 * Sure's combobox form "AAPL|XNAS" names the exchange after the bar.
 */
export const TickerInputSchema = z
  .string()
  .trim()
  .min(1, { message: "Ticker can't be blank" })
  .max(40, { message: "Ticker is too long (maximum is 40 characters)" })
  .regex(/^[\w.\-:/^=| ]+$/u, { message: "Ticker may hold letters, digits, spaces and . - : / ^ = | only" });

export const SecurityListQuerySchema = PageQuerySchema.extend({
  ticker: z.string().trim().max(40).optional(),
  exchange_operating_mic: z.string().trim().max(20).optional(),
  kind: SecurityKindSchema.optional(),
  offline: BooleanParamSchema.optional(),
});

/** The security a price or holding names: Sure's short form. */
export const SecurityRefSchema = z.object({
  id: UuidSchema,
  ticker: z.string(),
  name: z.string().nullable(),
});

/** Sure's SecurityPrice: `price` formatted, `price_amount` the exact decimal with four places. */
export const SecurityPriceSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  price: z.string(),
  price_amount: z.string(),
  currency: z.string(),
  provisional: z.boolean(),
  security: SecurityRefSchema.extend({ exchange_operating_mic: z.string().nullable() }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type SecurityPrice = z.infer<typeof SecurityPriceSchema>;

export const SecurityPriceCollectionSchema = z.object({ security_prices: z.array(SecurityPriceSchema), pagination: PaginationSchema });

export const SecurityPriceListQuerySchema = PageQuerySchema.extend({
  security_id: UuidSchema.optional(),
  currency: CurrencyInputSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
  provisional: BooleanParamSchema.optional(),
});

/** The most prices one request may record (a year of daily prices for a few securities). */
export const MAX_PRICES_PER_REQUEST = 1000;

const PriceInput = z
  .object({
    security_id: UuidSchema.optional(),
    ticker: TickerInputSchema.optional(),
    date: LedgerDateSchema,
    price: AmountInputSchema,
    currency: CurrencyInputSchema.optional().describe("Defaults to the family's currency for a new security, else the security's last price currency"),
  })
  .refine((input) => (input.security_id === undefined) !== (input.ticker === undefined), { message: "Provide either security_id or ticker" });

/** Our extension: record prices (one object, or many), upserted per security and day. */
export const RecordSecurityPricesBodySchema = z
  .object({
    security_price: PriceInput.optional(),
    security_prices: z
      .array(PriceInput)
      .min(1)
      .max(MAX_PRICES_PER_REQUEST, { message: `At most ${MAX_PRICES_PER_REQUEST} prices per request` })
      .optional(),
  })
  .refine((body) => (body.security_price === undefined) !== (body.security_prices === undefined), {
    message: "Provide security_price (one) or security_prices (a list)",
  });

export const RecordedSecurityPricesSchema = z.object({ security_prices: z.array(SecurityPriceSchema) });
