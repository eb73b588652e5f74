import type { FinanceDb } from "../../db";

/** A currency of an import's rows other than their account's, from its first day. */
export interface ForeignCurrency {
  currency: string;
  /** The first day (ISO) a row in it falls on: a rate on or before it covers every later one. */
  first: string;
}

/** The currencies of an import's valid rows that took theirs from the file, other than `accountCurrency`, with their first days. */
export async function storedForeignCurrencies(db: FinanceDb, importId: string, accountCurrency: string): Promise<ForeignCurrency[]> {
  return db.$queryRaw<ForeignCurrency[]>`
    SELECT r.values->>'currency' AS currency, to_char(min((r.values->>'date')::date), 'YYYY-MM-DD') AS first
      FROM import_rows r
     WHERE r.import_id = ${importId}::uuid AND r.values IS NOT NULL
       AND COALESCE((r.values->>'currency_from_file')::boolean, false) AND r.values->>'currency' <> ${accountCurrency}
     GROUP BY 1 ORDER BY 1`;
}

/**
 * Which of `currencies` the family has a usable rate for (either way round, above 0) to
 * `accountCurrency`, dated on or before the currency's first day: the rate a sync converts with
 * (rate-book.ts carries the last rate forward, never back).
 */
export async function coveredCurrencies(db: FinanceDb, familyId: string, accountCurrency: string, currencies: ForeignCurrency[]): Promise<Set<string>> {
  if (currencies.length === 0) return new Set();
  const rows = await db.$queryRaw<{ currency: string }[]>`
    SELECT f.currency FROM unnest(${currencies.map((c) => c.currency)}::text[], ${currencies.map((c) => c.first)}::date[]) AS f(currency, first)
     WHERE EXISTS (SELECT 1 FROM exchange_rates x
                    WHERE x.family_id = ${familyId}::uuid AND x.rate > 0 AND x.date <= f.first
                      AND ((x.from_currency = f.currency AND x.to_currency = ${accountCurrency})
                        OR (x.from_currency = ${accountCurrency} AND x.to_currency = f.currency)))`;
  return new Set(rows.map((row) => row.currency));
}
