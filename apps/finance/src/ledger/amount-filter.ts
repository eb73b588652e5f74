import { minorUnitDigits } from "@hearth/contracts";
import { centsIn } from "./money";

export interface AmountGroup {
  /** Currencies of one minor unit. */
  currencies: string[];
  min?: bigint;
  max?: bigint;
}

/**
 * Sure's min_amount/max_amount: bounds on the signed amount (positive outflows, negative
 * inflows), read in each entry's currency: 12.5 is 1250 cents of USD and 13 yen of JPY. The
 * family's currencies are grouped by minor unit, one pair of bounds per group. A bound with more
 * decimals than a currency has cannot match a whole number of its units, so it is rounded
 * towards the inside of the range.
 */
export function amountGroups(min: string | undefined, max: string | undefined, currencies: string[]): AmountGroup[] | null {
  if (min === undefined && max === undefined) return null;
  const byDigits = new Map<number, string[]>();
  for (const currency of currencies) {
    const digits = minorUnitDigits(currency);
    byDigits.set(digits, [...(byDigits.get(digits) ?? []), currency]);
  }
  return [...byDigits].map(([, group]) => ({
    currencies: group,
    ...(min !== undefined ? { min: scaled(min, group[0]!, "ceil") } : {}),
    ...(max !== undefined ? { max: scaled(max, group[0]!, "floor") } : {}),
  }));
}

function scaled(text: string, currency: string, direction: "ceil" | "floor"): bigint {
  const digits = minorUnitDigits(currency);
  const [whole = "0", fraction = ""] = text.replace(/^\+/, "").split(".");
  const kept = fraction.slice(0, digits);
  const dropped = fraction.slice(digits);
  let cents = centsIn(`${whole}.${kept || "0"}`, currency);
  if (/[1-9]/.test(dropped)) {
    const negative = whole.startsWith("-");
    // Truncation moved the value towards zero: step away from zero when that is the inside of the range.
    if (direction === "ceil" && !negative) cents += 1n;
    if (direction === "floor" && negative) cents -= 1n;
  }
  return cents;
}
