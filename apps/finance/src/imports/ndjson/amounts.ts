import { z } from "zod";
import type { RefinementCtx } from "zod";
import { MAX_AMOUNT_CENTS, minorUnitDigits } from "@hearth/contracts";
import { minorUnitsOf, parseDecimal, roundDecimal } from "../parsing/number-format";
import { presence } from "./field-schemas";

const DECIMAL_MESSAGE = "must be a decimal number like 12.34";
/** Longest decimal text read: 15 whole digits, 20 decimals, a sign and a point. */
const MAX_DECIMAL_TEXT = 40;
/** Plain decimal text with bounded runs, so the test stays linear on hostile input. */
const DECIMAL_TEXT = /^[+-]?\d{1,15}(?:\.\d{1,20})?$/;

/**
 * A decimal as Sure's exporter writes one: BigDecimal text ("1500.0") or a JSON number (which
 * arrives as the text it was written with). Normalised to plain decimal text ("-12.5", "0") by
 * the import's own number reader; no exponent, no thousands separators.
 */
export const DecimalTextSchema = z
  .string({ message: DECIMAL_MESSAGE })
  .max(MAX_DECIMAL_TEXT, { message: DECIMAL_MESSAGE })
  .trim()
  .regex(DECIMAL_TEXT, { message: DECIMAL_MESSAGE })
  .transform((text, ctx) => {
    const parsed = parseDecimal(text.startsWith("+") ? text.slice(1) : text, "1,234.56");
    if (parsed.ok) return parsed.decimal;
    ctx.addIssue({ code: "custom", message: DECIMAL_MESSAGE });
    return z.NEVER;
  });

/** An optional decimal: blank is null (Sure's `&.to_d` / `presence&.to_d`). */
export const OptionalDecimalTextSchema = z.preprocess(presence, DecimalTextSchema.optional()).transform((text) => text ?? null);

/**
 * How an amount meets its currency's minor unit. "exact": an amount someone entered (a
 * transaction, a valuation, a budget) with more decimals than the currency has is refused, never
 * rounded. "rounded": an amount Sure computed and stores with four decimals (a trade's or a
 * holding's qty x price, a day's balance figures, an account's balance, an average) is rounded
 * half away from zero to the currency's digits, as Hearth computes its own.
 */
export type AmountPrecision = "exact" | "rounded";

/** Minor units of `decimal` in `currency`, or an issue at `path` (and null). */
export function centsIn(decimal: string, currency: string, precision: AmountPrecision, ctx: RefinementCtx, path: (string | number)[]): bigint | null {
  const digits = minorUnitDigits(currency);
  const units = minorUnitsOf(precision === "rounded" ? roundDecimal(decimal, digits) : decimal, digits);
  if (units.ok) return units.minorUnits;
  const message =
    units.reason === "too_many_decimals"
      ? `has more decimals than ${currency} has (${digits})`
      : `is too large (at most ${MAX_AMOUNT_CENTS.toString()} minor units of ${currency})`;
  ctx.addIssue({ code: "custom", path, message });
  return null;
}

/** The same for an optional amount: null stays null. */
export function optionalCentsIn(
  decimal: string | null,
  currency: string,
  precision: AmountPrecision,
  ctx: RefinementCtx,
  path: (string | number)[],
): bigint | null {
  return decimal === null ? null : centsIn(decimal, currency, precision, ctx, path);
}

/** Whole digits of plain decimal text. */
export const wholeDigitsOf = (decimal: string): number => (decimal.replace("-", "").split(".")[0] ?? "").length;
