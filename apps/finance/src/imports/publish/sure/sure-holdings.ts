import { AppError } from "@hearth/contracts";
import { PRICE_SCALE, QTY_SCALE, fromScaled, plainScaled, toScaled } from "../../../holdings/fixed-point";
import { TRADE_PRICE_SCALE, tradeAmountCents } from "../../../trades/trade-amounts";
import type { SureNdjsonRecords } from "../../ndjson";
import { PublishError } from "../publish-error";
import { holdingPricesToStore, type PricedPosition } from "./holding-price-days";
import { filePositions, holdingScalePrice, holdingTrades, type FilePosition, type HoldingTrade } from "./holding-positions";
import { chunksOf, type SurePublishContext } from "./sure-publish-context";
import type { ImportSecurities } from "./sure-securities";
import { insertHoldingPrices } from "./sure-holding-queries";
import { assertHoldingsWithinLimit, refuseOutsideInvestments } from "./sure-trades";
import { insertTrades, type NewTrade } from "./sure-trade-queries";

/** The trade entry of a quantity the file's holdings have and its trades do not. */
function tradeRow(context: SurePublishContext, made: HoldingTrade, securityId: string): NewTrade {
  const { holding } = made;
  const price = fromScaled(made.price, TRADE_PRICE_SCALE);
  let amountCents: bigint;
  try {
    amountCents = tradeAmountCents(made.qty, price, "0", holding.currency);
  } catch (err) {
    if (err instanceof AppError) throw new PublishError(`Line ${holding.line} Holding: ${err.message}`);
    throw err;
  }
  return {
    ...holding,
    source_id: null,
    qty: fromScaled(made.qty, QTY_SCALE),
    price,
    amount_cents: amountCents,
    id: context.newId(),
    accountId: context.ids.required("accounts", holding.account_id, holding.line),
    securityId,
    feeCents: 0n,
    // Not a buy or sell the household made: named for where it comes from.
    name: `Imported holding: ${plainScaled(made.qty, QTY_SCALE)} shares of ${holding.ticker}`,
    label: "Other",
  };
}

/** A position as the sync will price it: its holdings, and the file's trades with the import's after them on a day. */
function pricedPosition(position: FilePosition, made: readonly HoldingTrade[], securityId: string): PricedPosition {
  const trades = [
    ...position.trades.map((trade) => ({
      date: trade.date,
      price: trade.currency === position.currency ? holdingScalePrice(toScaled(trade.price, TRADE_PRICE_SCALE)) : null,
    })),
    ...made.map((trade) => ({ date: trade.holding.date, price: holdingScalePrice(trade.price) })),
  ].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return {
    securityId,
    currency: position.currency,
    holdings: position.holdings.filter((h) => toScaled(h.qty, QTY_SCALE) !== 0n).map((h) => ({ date: h.date, price: toScaled(h.price, PRICE_SCALE) })),
    trades,
  };
}

/**
 * import_holdings over Hearth's model, where holdings follow from trades and prices: a quantity
 * a Holding record has and the file's trades do not give on its day becomes a trade of the
 * difference (bought at the record's cost basis, so the holding keeps it), and a record's price
 * the sync would not find becomes the security's price that day (for a security the import made;
 * one the family had keeps its own prices). Cost basis and security locks have no counterpart:
 * Hearth's cost basis is always its trades'. The queued sync then derives the holdings.
 */
export async function publishHoldings(context: SurePublishContext, records: SureNdjsonRecords, securities: ImportSecurities) {
  const { tx, familyId, importId } = context;
  refuseOutsideInvestments("holdings", records.Holding, records.Account);
  const currencies = new Map(records.Account.map((account) => [account.source_id, account.currency]));
  const positions = filePositions(records.Holding, records.Trade, (accountId) => currencies.get(accountId)!);

  const trades: NewTrade[] = [];
  const priced: PricedPosition[] = [];
  for (const position of positions) {
    const securityId = securities.byTicker.get(position.ticker)!;
    const made = holdingTrades(position);
    for (const trade of made) trades.push(tradeRow(context, trade, securityId));
    if (securities.made.has(securityId)) priced.push(pricedPosition(position, made, securityId));
  }
  const prices = holdingPricesToStore(priced);

  for (const batch of chunksOf(trades)) await insertTrades(tx, familyId, importId, batch);
  for (const batch of chunksOf(prices)) await insertHoldingPrices(tx, familyId, batch);
  await context.linesDone(records.Holding.length);
  if (trades.length > 0) await assertHoldingsWithinLimit(context, [...new Set(trades.map((trade) => trade.accountId))]);
  return { holding_trades: trades.length, holding_prices: prices.length };
}
