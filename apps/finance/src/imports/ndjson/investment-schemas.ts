import { z } from "zod";
import type { RefinementCtx } from "zod";
import { TickerInputSchema } from "@hearth/contracts";
import { PRICE_SCALE, QTY_SCALE } from "../../holdings/fixed-point";
import { TRADE_PRICE_SCALE } from "../../trades/trade-amounts";
import { roundDecimal } from "../parsing/number-format";
import { centsIn, DecimalTextSchema, OptionalDecimalTextSchema, wholeDigitsOf } from "./amounts";
import {
  booleanSchema,
  enumOrFallback,
  ImportDateSchema,
  OptionalCurrencySchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  optionalTextSchema,
  SourceIdSchema,
} from "./field-schemas";
import { currencyOf, type ReadContext } from "./read-context";
import type { SureHoldingValues, SureTradeValues } from "./record-values";

/** Whole digits Hearth keeps (as its trade CSV import): a quantity below 10^12, a unit price below 10^9. */
const WHOLE_DIGITS = { qty: 12, price: 9 } as const;
const LIMITS = { securityName: 500, exchange: 20, country: 8, url: 2_048 } as const;

/** A ticker as Sure looks securities up: upper case. */
const TickerSchema = TickerInputSchema.transform((ticker) => ticker.toUpperCase());

/** An exchange code (MIC, acronym): upper case, blank is none. */
const exchangeCode = () => optionalNameSchema(LIMITS.exchange).transform((code) => (code === null ? null : code.toUpperCase()));

const securityFields = {
  security_id: OptionalSourceIdSchema,
  ticker: TickerSchema,
  security_name: optionalNameSchema(LIMITS.securityName),
  exchange_operating_mic: exchangeCode(),
};

/** A quantity at Hearth's scale, or an issue. */
function quantityOf(qty: string, ctx: RefinementCtx): string | null {
  if (wholeDigitsOf(qty) <= WHOLE_DIGITS.qty) return roundDecimal(qty, QTY_SCALE);
  ctx.addIssue({ code: "custom", path: ["qty"], message: `must be less than 10^${WHOLE_DIGITS.qty}` });
  return null;
}

/** A unit price (never negative) at `scale` decimals, or an issue. */
function priceOf(price: string, scale: number, ctx: RefinementCtx, field = "price"): string | null {
  if (price.startsWith("-")) ctx.addIssue({ code: "custom", path: [field], message: "must not be negative" });
  else if (wholeDigitsOf(price) > WHOLE_DIGITS.price) ctx.addIssue({ code: "custom", path: [field], message: `must be less than 10^${WHOLE_DIGITS.price}` });
  else return roundDecimal(price, scale);
  return null;
}

/**
 * A Trade record as import_trades reads it. The amount is the entry's (qty x price, plus any fee
 * in Hearth's export), as Sure stored it with four decimals: rounded to the currency.
 */
export function tradeSchema(context: ReadContext) {
  return z
    .object({
      id: OptionalSourceIdSchema,
      account_id: SourceIdSchema,
      date: ImportDateSchema,
      ...securityFields,
      qty: DecimalTextSchema,
      price: DecimalTextSchema,
      amount: DecimalTextSchema,
      currency: OptionalCurrencySchema,
    })
    .transform((data, ctx): Omit<SureTradeValues, "line"> => {
      const currency = currencyOf(context, data.currency, data.account_id);
      const qty = quantityOf(data.qty, ctx);
      const price = priceOf(data.price, TRADE_PRICE_SCALE, ctx);
      const amount = centsIn(data.amount, currency, "rounded", ctx, ["amount"]);
      if (qty === null || price === null || amount === null) return z.NEVER;
      return {
        source_id: data.id,
        account_id: data.account_id,
        date: data.date,
        security_id: data.security_id,
        ticker: data.ticker,
        security_name: data.security_name,
        exchange_operating_mic: data.exchange_operating_mic,
        qty,
        price,
        amount_cents: amount,
        currency,
      };
    });
}

const COST_BASIS_SOURCES = ["manual", "calculated", "provider"] as const;

/** A Holding record (a day's position) as import_holdings reads it; its amount is Sure's qty x price, rounded. */
export function holdingSchema(context: ReadContext) {
  return z
    .object({
      id: OptionalSourceIdSchema,
      account_id: SourceIdSchema,
      date: ImportDateSchema,
      ...securityFields,
      exchange_mic: exchangeCode(),
      exchange_acronym: exchangeCode(),
      country_code: optionalNameSchema(LIMITS.country),
      website_url: optionalTextSchema(LIMITS.url),
      kind: enumOrFallback(["standard", "cash"], "standard"),
      qty: DecimalTextSchema,
      price: DecimalTextSchema,
      amount: DecimalTextSchema,
      currency: OptionalCurrencySchema,
      cost_basis: OptionalDecimalTextSchema,
      // Sure's importable_cost_basis_source: anything unknown is none.
      cost_basis_source: z
        .unknown()
        .optional()
        .transform((value) => ((COST_BASIS_SOURCES as readonly unknown[]).includes(value) ? (value as (typeof COST_BASIS_SOURCES)[number]) : null)),
      cost_basis_locked: booleanSchema(false),
      security_locked: booleanSchema(false),
    })
    .transform((data, ctx): Omit<SureHoldingValues, "line"> => {
      const currency = currencyOf(context, data.currency, data.account_id);
      const qty = quantityOf(data.qty, ctx);
      const price = priceOf(data.price, PRICE_SCALE, ctx);
      const costBasis = data.cost_basis === null ? null : priceOf(data.cost_basis, PRICE_SCALE, ctx, "cost_basis");
      const amount = centsIn(data.amount, currency, "rounded", ctx, ["amount"]);
      if (qty === null || price === null || amount === null || (data.cost_basis !== null && costBasis === null)) return z.NEVER;
      return {
        source_id: data.id,
        account_id: data.account_id,
        date: data.date,
        security_id: data.security_id,
        ticker: data.ticker,
        security_name: data.security_name,
        exchange_operating_mic: data.exchange_operating_mic,
        exchange_mic: data.exchange_mic,
        exchange_acronym: data.exchange_acronym,
        country_code: data.country_code,
        website_url: data.website_url,
        security_kind: data.kind,
        qty,
        price,
        amount_cents: amount,
        currency,
        cost_basis: costBasis,
        cost_basis_source: data.cost_basis_source,
        cost_basis_locked: data.cost_basis_locked,
        security_locked: data.security_locked,
      };
    });
}
