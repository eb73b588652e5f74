import { QTY_SCALE, toScaled } from "../../../holdings/fixed-point";
import { tradeAmountCents, tradeName } from "../../../trades/trade-amounts";
import { MAX_HOLDING_ROWS } from "../../../trades/trade-repository";
import type { SureAccountValues, SureTradeValues } from "../../ndjson";
import { PublishError } from "../publish-error";
import { inBatches, type SurePublishContext } from "./sure-publish-context";
import type { ImportSecurities } from "./sure-securities";
import { accountsOverHoldingLimit, insertTrades, type NewTrade } from "./sure-trade-queries";

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(", ");

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
 * Trades go to investment or crypto accounts only (as Hearth's trades API takes them): a record of
 * `what` (trades, holdings) naming another account fails the publish, naming up to five lines.
 */
export function refuseOutsideInvestments(what: string, records: readonly { line: number; account_id: string }[], accounts: readonly SureAccountValues[]): void {
  const accountsBySource = new Map(accounts.map((account) => [account.source_id, account]));
  const refused = records.filter((record) => !["investment", "crypto"].includes(accountsBySource.get(record.account_id)!.account_type));
  if (refused.length === 0) return;
  const lines = refused.slice(0, 5).map((record) => `Line ${record.line}`);
  const names = [...new Set(refused.map((record) => accountsBySource.get(record.account_id)!.name))];
  throw new PublishError(`${lines.join(", ")}: ${what} go to investment or crypto accounts only, not ${quoted(names.slice(0, 5))}.`);
}

/**
 * import_trades: each Trade record an entry of kind trade (with the import's id) and its trade,
 * on an investment or crypto account (the only ones Hearth's trades go to), its security the one
 * publishSecurities found or made for its ticker. Daily holdings follow from the queued sync,
 * bounded per account as the trades API bounds them.
 */
export async function publishTrades(
  context: SurePublishContext,
  trades: readonly SureTradeValues[],
  accounts: readonly SureAccountValues[],
  securities: ImportSecurities,
) {
  const { tx, familyId, importId } = context;
  refuseOutsideInvestments("trades", trades, accounts);
  const rows = trades.map((trade): NewTrade => ({
    ...trade,
    id: context.newId(),
    accountId: context.ids.required("accounts", trade.account_id, trade.line),
    securityId: securities.byTicker.get(trade.ticker)!,
    feeCents: feeOf(trade),
    ...nameAndLabel(trade),
  }));
  await inBatches(context, rows, (batch) => insertTrades(tx, familyId, importId, batch));
  if (rows.length > 0) await assertHoldingsWithinLimit(context, [...new Set(rows.map((row) => row.accountId))]);
  return { trades: rows.length, securities_created: securities.made.size };
}

/** The trades API's bound on daily holdings (securities x days since each one's first trade), for each account the import gave trades. */
export async function assertHoldingsWithinLimit(context: SurePublishContext, accountIds: string[]): Promise<void> {
  const over = await accountsOverHoldingLimit(context.tx, accountIds);
  if (over.length > 0) {
    throw new PublishError(
      `An account holds at most ${MAX_HOLDING_ROWS.toLocaleString("en")} daily holdings (securities x days since each one's first trade): ${quoted(over)} would hold more.`,
    );
  }
}
