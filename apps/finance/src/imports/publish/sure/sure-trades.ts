import { QTY_SCALE, toScaled } from "../../../holdings/fixed-point";
import { tradeAmountCents, tradeName } from "../../../trades/trade-amounts";
import { MAX_HOLDING_ROWS } from "../../../trades/trade-repository";
import type { SureAccountValues, SureTradeValues } from "../../ndjson";
import { PublishError } from "../publish-error";
import { inBatches, type SurePublishContext } from "./sure-publish-context";
import { accountsOverHoldingLimit, fillFamilySecurities, insertSecurities, insertTrades, type NewTrade } from "./sure-trade-queries";

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(", ");

/**
 * find_or_create_security for the file's tickers: the family's security of the ticker (Hearth
 * keeps one per ticker and family), its blank name and exchange filled from the file as Sure's
 * apply_security_metadata does, else a new offline one (no provider is reachable).
 */
async function securitiesFor(context: SurePublishContext, trades: readonly SureTradeValues[]): Promise<{ byTicker: Map<string, string>; created: number }> {
  const { tx, familyId } = context;
  const firsts = new Map<string, SureTradeValues>();
  for (const trade of trades) if (!firsts.has(trade.ticker)) firsts.set(trade.ticker, trade);
  const named = [...firsts.values()];
  const existing = await fillFamilySecurities(tx, familyId, named);
  const byTicker = new Map(existing.map((row) => [row.ticker, row.id]));
  const missing = named.filter((trade) => !byTicker.has(trade.ticker)).map((trade) => ({ ...trade, id: context.newId() }));
  for (const trade of missing) byTicker.set(trade.ticker, trade.id);
  if (missing.length > 0) await insertSecurities(tx, familyId, context.importId, missing);
  return { byTicker, created: missing.length };
}

/** The trades API's name and label: "Buy 10.0 shares of AAPL"; a trade of no quantity (income) is named by its ticker. */
function nameAndLabel(trade: SureTradeValues): { name: string; label: string | null } {
  const qty = toScaled(trade.qty, QTY_SCALE);
  if (qty === 0n)
    return { name: trade.amount_cents < 0n ? `Dividend: ${trade.ticker}` : `Buy ${trade.ticker}`, label: trade.amount_cents < 0n ? "Dividend" : null };
  return qty < 0n ? { name: tradeName("sell", qty, trade.ticker), label: "Sell" } : { name: tradeName("buy", qty, trade.ticker), label: "Buy" };
}

/** The fee the file's amount carries over qty x price (Hearth's export writes qty x price + fee); none when it carries less. */
function feeOf(trade: SureTradeValues): bigint {
  const qty = toScaled(trade.qty, QTY_SCALE);
  if (qty === 0n) return 0n;
  const fee = trade.amount_cents - tradeAmountCents(qty, trade.price, "0", trade.currency);
  return fee > 0n ? fee : 0n;
}

/**
 * import_trades: each Trade record an entry of kind trade (with the import's id) and its trade,
 * on an investment or crypto account (the only ones Hearth's trades go to), its security found
 * or made by ticker. Daily holdings follow from the queued sync, bounded per account as the
 * trades API bounds them.
 */
export async function publishTrades(context: SurePublishContext, trades: readonly SureTradeValues[], accounts: readonly SureAccountValues[]) {
  const { tx, familyId, importId } = context;
  const accountsBySource = new Map(accounts.map((account) => [account.source_id, account]));
  const refused = trades.filter((trade) => !["investment", "crypto"].includes(accountsBySource.get(trade.account_id)!.account_type));
  if (refused.length > 0) {
    const lines = refused.slice(0, 5).map((trade) => `Line ${trade.line}`);
    const names = [...new Set(refused.map((trade) => accountsBySource.get(trade.account_id)!.name))];
    throw new PublishError(`${lines.join(", ")}: trades go to investment or crypto accounts only, not ${quoted(names.slice(0, 5))}.`);
  }
  const { byTicker, created } = trades.length > 0 ? await securitiesFor(context, trades) : { byTicker: new Map<string, string>(), created: 0 };
  const rows = trades.map((trade): NewTrade => ({
    ...trade,
    id: context.newId(),
    accountId: context.ids.required("accounts", trade.account_id, trade.line),
    securityId: byTicker.get(trade.ticker)!,
    feeCents: feeOf(trade),
    ...nameAndLabel(trade),
  }));
  await inBatches(context, rows, (batch) => insertTrades(tx, familyId, importId, batch));
  if (rows.length > 0) await assertHoldingsWithinLimit(context, [...new Set(rows.map((row) => row.accountId))]);
  return { trades: rows.length, securities_created: created };
}

/** The trades API's bound on daily holdings (securities x days since each one's first trade), for each account the import gave trades. */
async function assertHoldingsWithinLimit(context: SurePublishContext, accountIds: string[]): Promise<void> {
  const over = await accountsOverHoldingLimit(context.tx, accountIds);
  if (over.length > 0) {
    throw new PublishError(
      `An account holds at most ${MAX_HOLDING_ROWS.toLocaleString("en")} daily holdings (securities x days since each one's first trade): ${quoted(over)} would hold more.`,
    );
  }
}
