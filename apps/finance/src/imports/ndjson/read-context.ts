/** What reading a record needs besides the record: the currencies it falls back to. */
export interface ReadContext {
  /** The family's currency: Sure's fallback for a record (or its account) without one. */
  defaultCurrency: string;
  /** Each Account record's currency by source id (its own, else the default). */
  accountCurrencies: ReadonlyMap<string, string>;
  /** Each Budget record's currency by source id. */
  budgetCurrencies: ReadonlyMap<string, string>;
}

/** A record's currency: its own, else its account's, else the family's. */
export function currencyOf(context: ReadContext, own: string | null, accountId: string): string {
  return own ?? context.accountCurrencies.get(accountId) ?? context.defaultCurrency;
}
