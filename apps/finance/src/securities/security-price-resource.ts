import { formatMoney, minorUnitDigits, type SecurityPrice } from "@hearth/contracts";
import { PRICE_SCALE, rescale, toScaled } from "../holdings/fixed-point";
import { isoDateOf } from "../ledger/dates";
import type { SecurityPriceRow } from "./security-price-repository";

/**
 * Sure's SecurityPrice JSON: `price` as money in the price's currency (rounded half away from zero
 * to its minor unit, "$215.00"), `price_amount` the stored decimal with four places ("215.0000").
 */
export function toSecurityPriceResource(row: SecurityPriceRow): SecurityPrice {
  const scaled = toScaled(row.price.toFixed(PRICE_SCALE), PRICE_SCALE);
  return {
    id: row.id,
    date: isoDateOf(row.date),
    price: formatMoney(rescale(scaled, PRICE_SCALE, minorUnitDigits(row.currency)), row.currency),
    price_amount: row.price.toFixed(PRICE_SCALE),
    currency: row.currency,
    provisional: row.provisional,
    security: {
      id: row.security.id,
      ticker: row.security.ticker,
      name: row.security.name,
      exchange_operating_mic: row.security.exchangeOperatingMic,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
