import type { Trade } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { displayOf, entryAmountOf } from "../ledger/money";
import { priceCents, qtyText } from "./trade-amounts";
import type { TradeRow } from "./trade-repository";

/** The spec's Trade (Sure's _trade.json.jbuilder plus `amount_cents`): qty as Ruby prints it, price formatted in the trade's currency. */
export function toTradeResource(row: TradeRow): Trade {
  const trade = row.trade!;
  const { date, amount, amount_cents } = entryAmountOf(row);
  return {
    id: row.id,
    date,
    amount,
    amount_cents,
    currency: trade.currency,
    name: row.name,
    notes: row.notes,
    qty: qtyText(trade.qty.toFixed()),
    price: displayOf(priceCents(trade.price.toFixed(), trade.currency), trade.currency),
    investment_activity_label: trade.investmentActivityLabel,
    account: toAccountSummary(row.account),
    security: { id: trade.security.id, ticker: trade.security.ticker, name: trade.security.name },
    category: row.category ? { id: row.category.id, name: row.category.name } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
