import { minorUnitDigits } from "@hearth/contracts";

/**
 * Converts minor units of one currency into another at a decimal rate ("0.912345"), exactly:
 * integer arithmetic on the rate's digits, rounded half away from zero once at the end.
 * USD→JPY also moves from 2 to 0 decimals; USD→KWD to 3.
 */
export function convertCents(cents: bigint, rate: string, from: string, to: string): bigint {
  const [whole, fraction = ""] = rate.split(".");
  const rateDigits = BigInt(`${whole}${fraction}`);
  const shift = minorUnitDigits(to) - minorUnitDigits(from) - fraction.length;
  let numerator = cents * rateDigits;
  let denominator = 1n;
  if (shift >= 0) numerator *= 10n ** BigInt(shift);
  else denominator = 10n ** BigInt(-shift);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < denominator) return quotient;
  return numerator < 0n ? quotient - 1n : quotient + 1n;
}

/** 1 / rate, to 12 decimals (the column's scale), for a rate stored the other way round. */
export function inverseRate(rate: string): string {
  const [whole, fraction = ""] = rate.split(".");
  const digits = BigInt(`${whole}${fraction}`);
  const scaled = (10n ** BigInt(12 + fraction.length) * 2n + digits) / (2n * digits);
  const text = scaled.toString().padStart(13, "0");
  return `${text.slice(0, -12)}.${text.slice(-12)}`;
}
