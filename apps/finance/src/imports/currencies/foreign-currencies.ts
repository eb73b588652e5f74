import { AppError } from "@hearth/contracts";
import type { ImportRepository } from "../import-repository";
import type { ForeignCurrency } from "./foreign-currency-queries";

type Rates = Pick<ImportRepository, "coveredCurrencies">;

/** An import's rows in currencies other than their account's: those the family can convert, and those it cannot yet. */
export interface CurrencyCoverage {
  accountCurrency: string;
  covered: ForeignCurrency[];
  missing: ForeignCurrency[];
}

export async function currencyCoverage(rates: Rates, familyId: string, accountCurrency: string, foreign: ForeignCurrency[]): Promise<CurrencyCoverage> {
  const covered = await rates.coveredCurrencies(familyId, accountCurrency, foreign);
  return {
    accountCurrency,
    covered: foreign.filter((each) => covered.has(each.currency)),
    missing: foreign.filter((each) => !covered.has(each.currency)),
  };
}

/** The first day of each currency of `rows` other than the account's (rows that took their currency from the file). */
export function foreignCurrenciesOf(
  rows: readonly { currency: string; date: string; currency_from_file: boolean }[],
  accountCurrency: string,
): ForeignCurrency[] {
  const first = new Map<string, string>();
  for (const row of rows) {
    if (!row.currency_from_file || row.currency === accountCurrency) continue;
    const seen = first.get(row.currency);
    if (seen === undefined || row.date < seen) first.set(row.currency, row.date);
  }
  return [...first].map(([currency, date]) => ({ currency, first: date })).sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * What a user must do before rows in another currency can go to the account: without a rate,
 * every sync of the account would fail and its balance show nothing (an OFX in CAD published
 * into a USD account did so).
 */
export function missingRatesMessage({ accountCurrency, missing }: CurrencyCoverage): string {
  const each = missing.map((gap) => `${gap.currency} to ${accountCurrency} dated ${gap.first} or earlier`).join("; ");
  const currencies = missing.map((gap) => gap.currency).join(", ");
  return `The file's transactions are in ${currencies} and the account's currency is ${accountCurrency}: add an exchange rate from ${each} (POST /api/v1/exchange_rates), then publish`;
}

/** What preflight says of rows the family can convert. */
export function convertedWarning({ accountCurrency, covered }: CurrencyCoverage): string {
  return `The file's transactions in ${covered.map((each) => each.currency).join(", ")} will be converted to the account's ${accountCurrency} with the family's exchange rates`;
}

/** Refuses to publish a stored import whose rows the family cannot convert into its account's currency (422 not_publishable, naming the rates). */
export async function assertRatesForImport(
  imports: Pick<ImportRepository, "coveredCurrencies" | "foreignCurrencies" | "accountOf">,
  familyId: string,
  importId: string,
  accountId: string | null,
): Promise<void> {
  const account = accountId === null ? null : await imports.accountOf(familyId, accountId);
  if (!account) return;
  const coverage = await currencyCoverage(imports, familyId, account.currency, await imports.foreignCurrencies(importId, account.currency));
  if (coverage.missing.length > 0) throw new AppError("not_publishable", { message: missingRatesMessage(coverage), importId });
}
