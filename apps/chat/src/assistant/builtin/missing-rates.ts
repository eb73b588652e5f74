import { listText } from "./format";

/** The sentence saying which currencies were left out of a total for want of an exchange rate, or none. */
export function missingRatesSentence(missing: readonly { from_currency: string; to_currency: string }[], what = "Amounts"): string[] {
  if (missing.length === 0) return [];
  const from = [...new Set(missing.map((rate) => rate.from_currency))].sort();
  const to = missing[0]!.to_currency;
  return [`${what} in ${listText(from)} are left out because there is no exchange rate to ${to}.`];
}
