// Quantities and unit prices as scaled integers (bigint), so holdings arithmetic is exact:
// a quantity in units of 10^-8 (the column's scale), a unit price in units of 10^-4.
import { trimTrailing } from "@hearth/contracts";
import { roundHalfAwayFromZero } from "../exchange-rates/convert";

export const QTY_SCALE = 8;
export const PRICE_SCALE = 4;

/** A decimal text ("-12.5", "3") as an integer in units of 10^-scale, rounded half away from zero past `scale` digits. */
export function toScaled(text: string, scale: number): bigint {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`"${text}" is not a decimal number`);
  const [, sign, whole, fraction = ""] = match;
  const exact = BigInt(whole! + fraction.padEnd(scale, "0"));
  const value = fraction.length > scale ? roundHalfAwayFromZero(exact, 10n ** BigInt(fraction.length - scale)) : exact;
  return sign === "-" ? -value : value;
}

/** The exact decimal text of a scaled integer with all `scale` digits: (12345n, 4) → "1.2345". */
export function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** The same without trailing zeros after the point ("3.0" stays "3.0"): how Ruby prints a BigDecimal with to_s("F"). */
export function plainScaled(value: bigint, scale: number): string {
  const [whole, fraction = ""] = fromScaled(value, scale).split(".");
  return `${whole}.${trimTrailing(fraction, "0") || "0"}`;
}

/** Changes the scale of a value, rounding half away from zero when it shrinks. */
export function rescale(value: bigint, from: number, to: number): bigint {
  if (to >= from) return value * 10n ** BigInt(to - from);
  return roundHalfAwayFromZero(value, 10n ** BigInt(from - to));
}

/** quantity × unit price in minor units of a currency with `digits` decimals, rounded once. */
export function valueInMinorUnits(qty: bigint, price: bigint, digits: number): bigint {
  return rescale(qty * price, QTY_SCALE + PRICE_SCALE, digits);
}

/** A unit price (10^-4) converted at a decimal rate ("1.0845"), rounded to 10^-4. */
export function convertPrice(price: bigint, rate: string): bigint {
  const [whole, fraction = ""] = rate.split(".");
  return roundHalfAwayFromZero(price * BigInt(`${whole}${fraction}`), 10n ** BigInt(fraction.length));
}
