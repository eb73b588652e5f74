/**
 * Where real market prices would come from (Sure's Provider::SecurityConcept#fetch_security_prices).
 * No market-data provider is reachable from this deployment, so nothing implements this yet:
 * prices come in through `POST /api/v1/security_prices` and imports. A provider plugged in later
 * only fetches; storing the prices and carrying them over the days without one is
 * `importPrices` (price-importer.ts), the same path recorded prices take.
 */
export interface PriceProvider {
  /** Shown in logs and errors ("twelve_data", "yahoo_finance"). */
  readonly name: string;
  /**
   * The provider's daily closing prices of a security between two ISO dates (inclusive). Days
   * the market was closed are simply absent; the importer carries the last price over them.
   */
  fetchPrices(security: ProviderSecurity, start: string, end: string): Promise<ProviderPrice[]>;
}

/** How a provider knows a security: its ticker and, when known, the exchange's operating MIC. */
export interface ProviderSecurity {
  ticker: string;
  exchangeOperatingMic: string | null;
}

/** One day's price: the ISO date, the exact decimal text ("215.1234"), the ISO 4217 currency. */
export interface ProviderPrice {
  date: string;
  price: string;
  currency: string;
}
