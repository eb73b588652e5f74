import { minorUnitDigits, type Holding } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { displayOf } from "../ledger/money";
import { PRICE_SCALE, QTY_SCALE, plainScaled, rescale } from "./fixed-point";
import type { HoldingRow } from "./holding-repository";

/** A 4-decimal unit price (10^-4) formatted in its currency ("$215.00"), as Sure's Money#format shows it. */
function formattedPrice(price: bigint, currency: string): string {
  return displayOf(rescale(price, PRICE_SCALE, minorUnitDigits(currency)), currency);
}

/**
 * Sure's _holding.json.jbuilder, plus `amount_cents`. created_at is its span's (when the position
 * took this form); updated_at the later of the span's and the price's it is valued at, so a
 * client syncing by updated_at sees a repricing.
 */
export function toHoldingResource(row: HoldingRow): Holding {
  const { span } = row;
  return {
    id: row.id,
    date: row.date,
    qty: plainScaled(span.qty, QTY_SCALE),
    price: formattedPrice(row.price, span.currency),
    amount: displayOf(row.amountCents, span.currency),
    amount_cents: Number(row.amountCents),
    currency: span.currency,
    cost_basis_source: span.avgCost === null ? null : "calculated",
    account: toAccountSummary(span.account),
    security: { id: span.security.id, ticker: span.security.ticker, name: span.security.name },
    avg_cost: span.avgCost === null ? null : formattedPrice(span.avgCost, span.currency),
    created_at: span.createdAt.toISOString(),
    updated_at: (row.priceUpdatedAt !== null && row.priceUpdatedAt > span.updatedAt ? row.priceUpdatedAt : span.updatedAt).toISOString(),
  };
}
