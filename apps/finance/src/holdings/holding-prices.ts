// Stored security prices in an account's currency, for the sync (a window's series) and for reads
// (the price a day's holding carries). One rule everywhere: a day's stored price is the one of the
// latest date on or before it, in the account's currency if one was stored that day, else the
// first other currency's (alphabetically) converted at the family's rate of the price's date.
import type { FinanceTx } from "../db";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { createRateBook, type RateBook } from "../exchange-rates/rate-book";
import { storedRatesBetween } from "../exchange-rates/stored-rates";
import { dateOf } from "../ledger/dates";
import { PRICE_SCALE, convertPrice, toScaled } from "./fixed-point";
import type { PriceSeries } from "./holding-calculator";

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

interface PriceColumns {
  security_id: string;
  days: string;
  prices: string;
  currencies: string;
}

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
  // One comma-joined text per column and security (cheap to split, exact at any size); prices
  // rounded half away from zero to 10^-4, as toScaled rounds them; "" for the account's currency.
  const series = await tx.$queryRaw<PriceColumns[]>`
    SELECT security_id::text AS security_id, string_agg((date - DATE '1970-01-01')::text, ',' ORDER BY date) AS days,
           string_agg(round(price * 10000)::text, ',' ORDER BY date) AS prices,
           string_agg(coalesce(NULLIF(currency, ${account.currency}), ''), ',' ORDER BY date) AS currencies
      FROM (SELECT DISTINCT ON (security_id, date) security_id, date, price, currency
              FROM security_prices
             WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[])
               AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
             ORDER BY security_id, date, (currency = ${account.currency}) DESC, currency) AS daily
     GROUP BY security_id`;
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

export interface StoredPrice {
  day: number;
  /** 10^-4 of `currency`, not yet converted. */
  price: bigint;
  currency: string;
  /** When the price row was last written: a holding priced by it changed then. */
  updatedAt: Date;
}

/**
 * For each (security, day), the stored price of the latest date on or before the day (null:
 * none), preferring the item's currency (its account's) that day; in the given order. A short
 * backward walk of the (security, date) index each. The walk has no family filter on purpose (a
 * security is one family's, and the row chosen is filtered by the family): with one, the planner
 * walked the family's (family, date) index instead, 850 ms for 50 lookups in the investments bench.
 */
export async function latestPricesOnOrBefore(
  tx: FinanceTx,
  familyId: string,
  wanted: readonly { securityId: string; day: number; currency: string }[],
): Promise<(StoredPrice | null)[]> {
  if (wanted.length === 0) return [];
  const rows = await tx.$queryRaw<{ n: bigint; day: number; price: string; currency: string; updated_at: Date }[]>`
    SELECT k.n, last.date - DATE '1970-01-01' AS day, chosen.price::text AS price, chosen.currency, chosen.updated_at
      FROM unnest(${wanted.map((item) => item.securityId)}::uuid[], ${wanted.map((item) => item.day)}::int[], ${wanted.map((item) => item.currency)}::text[])
           WITH ORDINALITY AS k(security_id, day, currency, n)
      CROSS JOIN LATERAL (SELECT date FROM security_prices
                           WHERE security_id = k.security_id AND date <= DATE '1970-01-01' + k.day ORDER BY date DESC LIMIT 1) AS last
      CROSS JOIN LATERAL (SELECT price, currency, updated_at FROM security_prices
                           WHERE security_id = k.security_id AND date = last.date AND family_id = ${familyId}::uuid
                           ORDER BY (currency = k.currency) DESC, currency LIMIT 1) AS chosen`;
  const found: (StoredPrice | null)[] = new Array<StoredPrice | null>(wanted.length).fill(null);
  for (const row of rows)
    found[Number(row.n) - 1] = { day: row.day, price: toScaled(row.price, PRICE_SCALE), currency: row.currency, updatedAt: row.updated_at };
  return found;
}
