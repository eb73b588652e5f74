import type { FinanceTx } from "../../../db";
import { PRICE_SCALE, fromScaled } from "../../../holdings/fixed-point";
import type { HoldingPrice } from "./holding-price-days";
import { column } from "./sure-publish-context";

/**
 * Writes real prices of securities the import made (their revert goes with the security's). A day
 * that has a price keeps it: the import only adds.
 */
export async function insertHoldingPrices(tx: FinanceTx, familyId: string, batch: readonly HoldingPrice[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO security_prices (id, family_id, security_id, date, price, currency, provisional, created_at, updated_at)
    SELECT gen_random_uuid(), ${familyId}::uuid, t.security_id, t.date, t.price, t.currency, false, now(), now()
      FROM unnest(${column(batch, (p) => p.securityId)}::uuid[], ${column(batch, (p) => p.date)}::date[],
                  ${column(batch, (p) => fromScaled(p.price, PRICE_SCALE))}::numeric[], ${column(batch, (p) => p.currency)}::text[])
           AS t(security_id, date, price, currency)
    ON CONFLICT (security_id, date, currency) DO NOTHING`;
}
