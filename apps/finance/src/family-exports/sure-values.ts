/** Characters ActiveSupport's JSON encoder escapes beyond JSON's own (HTML-safe, JS-line-safe). */
const RAILS_ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * JSON text with <, >, & and the JS line separators escaped as Rails' to_json writes them. Safe
 * on whole JSON documents: these characters occur in JSON only inside strings.
 */
export const railsEscape = (json: string): string => json.replace(/[<>&\u2028\u2029]/g, (char) => RAILS_ESCAPES[char]!);

/** A value as Rails' to_json writes it. */
export const railsJson = (value: unknown): string => railsEscape(JSON.stringify(value));

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
