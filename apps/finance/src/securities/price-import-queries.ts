import type { FinanceTx } from "../db";
import { dateOf } from "../ledger/dates";

// The statements of `importPrices` (price-importer.ts), which says what they keep true.

/** One currency's prices of one of the family's securities. */
export interface PriceSeriesKey {
  familyId: string;
  securityId: string;
  currency: string;
}

/** Locks the family's security against other imports of its prices; false when the family has no such security. */
export async function lockSecurityForPrices(tx: FinanceTx, familyId: string, securityId: string): Promise<boolean> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM securities WHERE id = ${securityId}::uuid AND family_id = ${familyId}::uuid FOR NO KEY UPDATE`;
  return locked.length > 0;
}

/** Step 1 of `importPrices` for one currency: its real prices upserted; the earliest day changed. */
export async function upsertRealPrices(
  tx: FinanceTx,
  { familyId, securityId, currency }: PriceSeriesKey,
  reals: readonly { date: string; price: string }[],
): Promise<Date | null> {
  const [changed] = await tx.$queryRaw<{ earliest: Date | null }[]>`
    WITH changed AS (
      INSERT INTO security_prices (id, family_id, security_id, date, price, currency, provisional, created_at, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, ${securityId}::uuid, real.date, real.price, ${currency}, false, now(), now()
        FROM unnest(${reals.map((real) => real.date)}::date[], ${reals.map((real) => real.price)}::numeric[]) AS real(date, price)
      ON CONFLICT (security_id, date, currency) DO UPDATE SET price = EXCLUDED.price, provisional = false, updated_at = now()
       WHERE security_prices.provisional OR security_prices.price <> EXCLUDED.price
      RETURNING date
    )
    SELECT min(date) AS earliest FROM changed`;
  return changed?.earliest ?? null;
}

/**
 * Step 2 of `importPrices` for one currency, from the last real price before `from`, each real price
 * carried at most `maxDays`; the earliest day changed.
 */
export async function carryForward(
  tx: FinanceTx,
  { familyId, securityId, currency }: PriceSeriesKey,
  from: string,
  today: string,
  maxDays: number,
): Promise<Date | null> {
  // A price for a day after `today` is stored but carries nothing yet; before `from` nothing changes.
  const [row] = await tx.$queryRaw<{ earliest: Date | null }[]>`
    WITH anchor AS (
      SELECT COALESCE(max(date), ${dateOf(from)}::date) AS start FROM security_prices
       WHERE security_id = ${securityId}::uuid AND currency = ${currency} AND NOT provisional AND date < ${dateOf(from)}::date
    ),
    reals AS (
      SELECT date, price, lead(date) OVER (ORDER BY date) AS next_date FROM security_prices
       WHERE security_id = ${securityId}::uuid AND currency = ${currency} AND NOT provisional AND date >= (SELECT start FROM anchor)
    ),
    desired AS (
      SELECT real.date + day AS date, real.price FROM reals real
       CROSS JOIN LATERAL generate_series(1, LEAST(COALESCE(real.next_date - real.date - 1, ${maxDays}::int),
                                                     ${maxDays}::int, ${dateOf(today)}::date - real.date)) AS day
    ),
    carried AS (
      INSERT INTO security_prices (id, family_id, security_id, date, price, currency, provisional, created_at, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, ${securityId}::uuid, desired.date, desired.price, ${currency}, true, now(), now()
        FROM desired
       WHERE NOT EXISTS (SELECT 1 FROM security_prices kept
                          WHERE kept.security_id = ${securityId}::uuid AND kept.currency = ${currency} AND kept.date = desired.date
                            AND kept.provisional AND kept.price = desired.price)
      ON CONFLICT (security_id, date, currency) DO UPDATE SET price = EXCLUDED.price, updated_at = now()
       WHERE security_prices.provisional
      RETURNING date
    ),
    dropped AS (
      DELETE FROM security_prices stale
       WHERE stale.security_id = ${securityId}::uuid AND stale.currency = ${currency} AND stale.provisional
         AND stale.date > (SELECT start FROM anchor)
         AND NOT EXISTS (SELECT 1 FROM desired WHERE desired.date = stale.date)
      RETURNING date
    )
    SELECT min(date) AS earliest FROM (SELECT date FROM carried UNION ALL SELECT date FROM dropped) AS changed`;
  return row?.earliest ?? null;
}
