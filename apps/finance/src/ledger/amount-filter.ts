import { minorUnitDigits } from "@hearth/contracts";
import type { Prisma } from "../generated/prisma/client";
import { centsIn } from "./money";

// Currencies whose minor unit is not the hundredth: amounts are compared in each entry's own units.
const OTHER_DIGITS = Intl.supportedValuesOf("currency").filter((code) => minorUnitDigits(code) !== 2);
const GROUPS = [2, ...new Set(OTHER_DIGITS.map(minorUnitDigits))].map((digits) => ({
  digits,
  sample: digits === 2 ? "USD" : OTHER_DIGITS.find((code) => minorUnitDigits(code) === digits)!,
  currencies: digits === 2 ? { notIn: OTHER_DIGITS } : { in: OTHER_DIGITS.filter((code) => minorUnitDigits(code) === digits) },
}));

/**
 * Sure's min_amount/max_amount: bounds on the signed amount (positive outflows, negative
 * inflows), read in each entry's currency: 12.5 is 1250 cents of USD and 13 yen of JPY.
 * A bound with more decimals than a currency has cannot match a whole number of its units,
 * so it is rounded towards the inside of the range.
 */
export function amountFilter(min: string | undefined, max: string | undefined): Prisma.EntryWhereInput | null {
  if (min === undefined && max === undefined) return null;
  return {
    OR: GROUPS.map(({ digits, sample, currencies }) => ({
      currency: currencies,
      amountCents: {
        ...(min !== undefined ? { gte: scaled(min, digits, sample, "ceil") } : {}),
        ...(max !== undefined ? { lte: scaled(max, digits, sample, "floor") } : {}),
      },
    })),
  };
}

function scaled(text: string, digits: number, sample: string, direction: "ceil" | "floor"): bigint {
  const [whole = "0", fraction = ""] = text.replace(/^\+/, "").split(".");
  const kept = fraction.slice(0, digits);
  const dropped = fraction.slice(digits);
  let cents = centsIn(`${whole}.${kept || "0"}`, sample);
  if (/[1-9]/.test(dropped)) {
    const negative = whole.startsWith("-");
    // Truncation moved the value towards zero: step away from zero when that is the inside of the range.
    if (direction === "ceil" && !negative) cents += 1n;
    if (direction === "floor" && negative) cents -= 1n;
  }
  return cents;
}
