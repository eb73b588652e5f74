import { minorUnitDigits, type Holding } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { isoDateOf } from "../ledger/dates";
import { displayOf } from "../ledger/money";
import { PRICE_SCALE, QTY_SCALE, plainScaled, rescale, toScaled } from "./fixed-point";
import type { HoldingRow } from "./holding-repository";

/** A 4-decimal unit price formatted in its currency ("$215.00"), as Sure's Money#format shows it. */
function formattedPrice(price: string, currency: string): string {
  return displayOf(rescale(toScaled(price, PRICE_SCALE), PRICE_SCALE, minorUnitDigits(currency)), currency);
}

/** Sure's _holding.json.jbuilder, plus `amount_cents`. */
export function toHoldingResource(row: HoldingRow): Holding {
  return {
    id: row.id,
    date: isoDateOf(row.date),
    qty: plainScaled(toScaled(row.qty.toFixed(), QTY_SCALE), QTY_SCALE),
    price: formattedPrice(row.price.toFixed(), row.currency),
    amount: displayOf(row.amountCents, row.currency),
    amount_cents: Number(row.amountCents),
    currency: row.currency,
    cost_basis_source: row.costBasisSource,
    account: toAccountSummary(row.account),
    security: { id: row.security.id, ticker: row.security.ticker, name: row.security.name },
    avg_cost: row.avgCost === null ? null : formattedPrice(row.avgCost.toFixed(), row.currency),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
