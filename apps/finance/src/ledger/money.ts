import { AppError, centsOf, decimalOf, minorUnitDigits, moneyOf, trimTrailing } from "@hearth/contracts";
import { isoDateOf } from "./dates";

/** A money pair from a BIGINT column (always within JavaScript's safe integers for real balances). */
export function pairOf<N extends string>(name: N, cents: bigint | number, currency: string) {
  return moneyOf(name, Number(cents), currency);
}

/** The display string alone ("$12.34", "-€5.00"). */
export function displayOf(cents: bigint | number, currency: string): string {
  return pairOf("amount", cents, currency).amount;
}

/** Minor units of a validated decimal amount in `currency`; too many decimals is a 422 naming the field. */
export function centsIn(text: string, currency: string, field = "Amount"): bigint {
  try {
    return centsOf(text, currency);
  } catch (err) {
    if (err instanceof RangeError) throw AppError.validation([`${field}: ${err.message}`]);
    throw err;
  }
}

/** The dated amount every entry answers with (transactions, valuations, transfer sides). */
export function entryAmountOf(entry: { date: Date; amountCents: bigint; currency: string }) {
  return {
    date: isoDateOf(entry.date),
    amount: displayOf(entry.amountCents, entry.currency),
    amount_cents: Number(entry.amountCents),
    currency: entry.currency,
  };
}

/** An amount as Ruby's BigDecimal#to_s("F") writes it, which Sure uses for transfer fees: "0.0", "2.5", "12.34". */
export function plainDecimalOf(cents: bigint | number, currency: string): string {
  const text = decimalOf(cents, minorUnitDigits(currency));
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${trimTrailing(fraction, "0") || "0"}`;
}
