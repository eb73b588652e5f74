import { minorUnitDigits } from "@hearth/contracts";

/**
 * Converts minor units of one currency into another at a decimal rate ("0.912345"), exactly:
 * integer arithmetic on the rate's digits, rounded half away from zero once at the end.
 * USD→JPY also moves from 2 to 0 decimals; USD→KWD to 3.
 */
export function convertCents(cents: bigint, rate: string, from: string, to: string): bigint {
  const { numerator, denominator } = exactConversion(cents, rate, from, to);
  return roundHalfAwayFromZero(numerator, denominator);
}

/** The converted amount as an exact fraction of target minor units. */
function exactConversion(cents: bigint, rate: string, from: string, to: string): { numerator: bigint; denominator: bigint } {
  const [whole, fraction = ""] = rate.split(".");
  const rateDigits = BigInt(`${whole}${fraction}`);
  const shift = minorUnitDigits(to) - minorUnitDigits(from) - fraction.length;
  let numerator = cents * rateDigits;
  let denominator = 1n;
  if (shift >= 0) numerator *= 10n ** BigInt(shift);
  else denominator = 10n ** BigInt(-shift);
  return { numerator, denominator };
}

/**
 * Converts a stream of amounts so that every running total is the exact converted total rounded
 * once: each amount gives the change of the rounded running total. Rounding each amount alone
 * drifts (three 0.01 EUR at 1.5 are 0.045 USD, five cents, not three times two).
 */
export function createCarryingConversion(from: string, to: string) {
  // Exact running total in units of 10^-SCALE target minor units: rates have at most 12 decimals
  // and currencies differ by at most 3 minor digits, so every exact amount is a whole number here.
  const SCALE = 10n ** 16n;
  let exact = 0n;
  let emitted = 0n;
  return (cents: bigint, rate: string): bigint => {
    const { numerator, denominator } = exactConversion(cents, rate, from, to);
    exact += (numerator * SCALE) / denominator;
    const rounded = roundHalfAwayFromZero(exact, SCALE);
    const change = rounded - emitted;
    emitted = rounded;
    return change;
  };
}

/** numerator / denominator (denominator > 0) rounded half away from zero. */
export function roundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < denominator) return quotient;
  return numerator < 0n ? quotient - 1n : quotient + 1n;
}

/**
 * Whether a stored rate can convert: above 0. The API refuses anything else, but a row stored
 * before it did (or by hand) may be 0 or, by rounding, "0.000000000000"; such a row counts as absent.
 */
export function isUsableRate(rate: string): boolean {
  return !rate.trim().startsWith("-") && /[1-9]/.test(rate);
}

/** 1 / rate, to 12 decimals (the column's scale), for a rate stored the other way round (a usable one: see isUsableRate). */
export function inverseRate(rate: string): string {
  const [whole, fraction = ""] = rate.split(".");
  const digits = BigInt(`${whole}${fraction}`);
  if (digits <= 0n) throw new RangeError(`cannot invert the rate ${rate}`);
  const scaled = (10n ** BigInt(12 + fraction.length) * 2n + digits) / (2n * digits);
  const text = scaled.toString().padStart(13, "0");
  return `${text.slice(0, -12)}.${text.slice(-12)}`;
}
