// The balance sheet's arithmetic: per-currency totals of the accounts' balances, converted into
// the family currency at the latest stored rates. Pure; the handler reads the figures.
import { convertCents, inverseRate, isUsableRate } from "../exchange-rates/convert";

/** The balances of one currency and class of accounts, summed. */
export interface CurrencyTotal {
  currency: string;
  classification: "asset" | "liability";
  cents: bigint;
}

/** The latest stored rate of one pair, as stored (either way round). */
export interface LatestRate {
  from_currency: string;
  to_currency: string;
  date: Date;
  rate: string;
}

/** The currencies other than `currency` the totals are in, in order of first appearance. */
export function foreignCurrenciesOf(totals: readonly CurrencyTotal[], currency: string): string[] {
  return [...new Set(totals.map((total) => total.currency).filter((code) => code !== currency))];
}

/** Per currency, its rate into `target`: the latest either way round (a direct rate wins over an inverted one of the same day; a rate of 0 is left out). */
export function ratesInto(rows: readonly LatestRate[], target: string): Map<string, string> {
  const best = new Map<string, { date: number; direct: boolean; rate: string }>();
  for (const row of rows) {
    if (!isUsableRate(row.rate)) continue;
    const direct = row.to_currency === target;
    const currency = direct ? row.from_currency : row.to_currency;
    const candidate = { date: row.date.getTime(), direct, rate: direct ? row.rate : inverseRate(row.rate) };
    const known = best.get(currency);
    if (!known || candidate.date > known.date || (candidate.date === known.date && direct)) best.set(currency, candidate);
  }
  return new Map([...best].map(([code, { rate }]) => [code, rate]));
}

/** Assets and liabilities in `currency`; a foreign currency without a rate is left out (never converted at 1). */
export function netWorthOf(totals: readonly CurrencyTotal[], currency: string, rates: ReadonlyMap<string, string>) {
  let assets = 0n;
  let liabilities = 0n;
  for (const total of totals) {
    const rate = rates.get(total.currency);
    if (total.currency !== currency && rate === undefined) continue;
    const cents = rate === undefined ? total.cents : convertCents(total.cents, rate, total.currency, currency);
    if (total.classification === "asset") assets += cents;
    else liabilities += cents;
  }
  return { assets, liabilities };
}
