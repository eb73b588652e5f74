import { plainDecimalOf } from "../ledger/money";

/**
 * Values as Sure's exporter prints them. Ruby's BigDecimal#to_s (Rails makes it "F") is the
 * plainest decimal with at least one fraction digit: "1000.0", "42.5", "-0.05".
 */
export const amountText = (cents: bigint, currency: string): string => plainDecimalOf(cents, currency);

/** An amount column that may be empty (a budget not yet set): null stays null. */
export const optionalAmountText = (cents: bigint | null, currency: string): string | null => (cents === null ? null : amountText(cents, currency));

/** PostgreSQL numeric text ("10.00000000", "150") the way BigDecimal#to_s writes it ("10.0", "150.0"). */
export function numericText(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  let end = fraction.length;
  while (end > 0 && fraction[end - 1] === "0") end--;
  return `${whole}.${fraction.slice(0, end) || "0"}`;
}

export const optionalNumericText = (text: string | null): string | null => (text === null ? null : numericText(text));

/** A timestamp as ActiveSupport's JSON writes it: UTC, milliseconds, "Z" ("2026-03-01T10:20:30.123Z"). */
export const jsonTime = (at: Date): string => at.toISOString();

/** A timestamp as Time#iso8601 writes it in Sure's UTC zone: whole seconds, "Z" (accounts.csv's created_at). */
export const csvTime = (at: Date): string => `${at.toISOString().slice(0, 19)}Z`;

/** Characters ActiveSupport's JSON encoder escapes beyond JSON's own (HTML-safe, JS-line-safe). */
const RAILS_ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/** JSON text as Rails' to_json writes it: the same values, with <, >, & and the JS line separators escaped. */
export function railsJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => RAILS_ESCAPES[char]!);
}

/** Sure's Accountable class for each of Hearth's account types (accounts.csv's type, the Account record's accountable_type). */
export const ACCOUNTABLE_TYPES = {
  depository: "Depository",
  investment: "Investment",
  crypto: "Crypto",
  property: "Property",
  vehicle: "Vehicle",
  credit_card: "CreditCard",
  loan: "Loan",
  other_asset: "OtherAsset",
  other_liability: "OtherLiability",
} as const satisfies Record<string, string>;

export type HearthAccountType = keyof typeof ACCOUNTABLE_TYPES;
