// Stored security prices in an account's currency, for the sync (a window's series) and for reads
// (the price a day's holding carries). One rule everywhere: a day's stored price is the one of the
// latest date on or before it, in the account's currency if one was stored that day, else the
// first other currency's (alphabetically) converted at the family's rate of the price's date.
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rate-queries";
import { convertPrice } from "./fixed-point";
import type { PriceSeries } from "./holding-calculator";
import { latestPricesOnOrBefore, storedPriceColumns } from "./holding-price-queries";

export type PriceConverter = (price: bigint, currency: string, date: string) => Promise<bigint>;

/** Unit prices (10^-4) into `currency` at the family's rate of the day (the latest on or before it); a missing rate throws MissingExchangeRate, never 1. */
export function createPriceConverter(tx: FinanceTx, familyId: string, currency: string): PriceConverter {
  const books = new Map<string, Promise<RateBook>>();
  return async (price, from, date) => {
    if (from === currency) return price;
    let book = books.get(from);
    if (!book) {
      book = storedRatesBetween(tx, familyId, from, currency).then((rates) => createRateBook(rates, from, currency));
      books.set(from, book);
    }
    return convertPrice(price, (await book).rateOn(date));
  };
}

const fieldsOf = (text: string | null): string[] => (text === null ? [] : text.split(","));

export interface PriceWindow {
  /** Per security, its stored prices from `from` to `to` (one a day), converted. */
  prices: Map<string, PriceSeries>;
  /** Per security, its latest stored price dated before `from`, converted. */
  pricesBefore: Map<string, { date: string; price: bigint }>;
}

/** The securities' stored prices from `from` to `to` and each one's last before `from`, in the account's currency. */
export async function loadPriceWindow(
  tx: FinanceTx,
  account: { familyId: string; currency: string },
  securityIds: string[],
  from: string,
  to: string,
  convert: PriceConverter,
): Promise<PriceWindow> {
  const prices = await loadPriceSeries(tx, account, securityIds, from, to, convert);
  const pricesBefore = new Map<string, { date: string; price: bigint }>();
  const dayBefore = isoToDayNumber(from) - 1;
  const before = await latestPricesOnOrBefore(
    tx,
    account.familyId,
    securityIds.map((securityId) => ({ securityId, day: dayBefore, currency: account.currency })),
  );
  for (let i = 0; i < securityIds.length; i++) {
    const found = before[i];
    if (found) {
      const date = dayNumberToIso(found.day);
      pricesBefore.set(securityIds[i]!, { date, price: await convert(found.price, found.currency, date) });
    }
  }
  return { prices, pricesBefore };
}

/** The securities' stored prices from `from` to `to` (one a day), in the account's currency. */
export async function loadPriceSeries(
  tx: FinanceTx,
  account: { familyId: string; currency: string },
  securityIds: string[],
  from: string,
  to: string,
  convert: PriceConverter,
): Promise<Map<string, PriceSeries>> {
  const prices = new Map<string, PriceSeries>();
  if (securityIds.length === 0) return prices;
  const series = await storedPriceColumns(tx, account, securityIds, from, to);
  for (const row of series) {
    const days = fieldsOf(row.days).map(Number);
    const scaled = fieldsOf(row.prices);
    const currencies = fieldsOf(row.currencies);
    const converted: bigint[] = new Array<bigint>(days.length);
    for (let i = 0; i < days.length; i++) {
      const price = BigInt(scaled[i]!);
      const currency = currencies[i];
      converted[i] = currency ? await convert(price, currency, dayNumberToIso(days[i]!)) : price;
    }
    prices.set(row.security_id, { days, prices: converted });
  }
  return prices;
}
