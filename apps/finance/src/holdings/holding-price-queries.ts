// Stored security prices as holding-prices.ts reads them: the ORDER BYs below pick a day's price
// by the rule its header states.
import type { FinanceTx } from "../db";
import { dateOf } from "../ledger/dates";
import { PRICE_SCALE, toScaled } from "./fixed-point";

export interface PriceColumns {
  security_id: string;
  days: string;
  prices: string;
  currencies: string;
}

/** Per security, its stored prices from `from` to `to` (one a day), not yet converted. */
export function storedPriceColumns(
  tx: FinanceTx,
  account: { familyId: string; currency: string },
  securityIds: string[],
  from: string,
  to: string,
): Promise<PriceColumns[]> {
  // One comma-joined text per column and security (cheap to split, exact at any size); prices
  // rounded half away from zero to 10^-4, as toScaled rounds them; "" for the account's currency.
  return tx.$queryRaw<PriceColumns[]>`
    SELECT security_id::text AS security_id, string_agg((date - DATE '1970-01-01')::text, ',' ORDER BY date) AS days,
           string_agg(round(price * 10000)::text, ',' ORDER BY date) AS prices,
           string_agg(coalesce(NULLIF(currency, ${account.currency}), ''), ',' ORDER BY date) AS currencies
      FROM (SELECT DISTINCT ON (security_id, date) security_id, date, price, currency
              FROM security_prices
             WHERE family_id = ${account.familyId}::uuid AND security_id = ANY(${securityIds}::uuid[])
               AND date BETWEEN ${dateOf(from)}::date AND ${dateOf(to)}::date
             ORDER BY security_id, date, (currency = ${account.currency}) DESC, currency) AS daily
     GROUP BY security_id`;
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
