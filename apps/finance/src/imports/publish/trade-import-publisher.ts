import type { FinanceTx } from "../../db";
import { QTY_SCALE, toScaled } from "../../holdings/fixed-point";
import { tickerOf } from "../../securities/security-resolver";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import { tradeName } from "../../trades/trade-amounts";
import { MAX_HOLDING_ROWS, assertTakesTrades } from "../../trades/trade-repository";
import { PublishError } from "./publish-error";
import { resolveStagedAccounts } from "./staged-accounts";
import {
  accountsOverHoldingLimit,
  createStagedSecurities,
  keepNewTrades,
  insertStagedTrades,
  linkStagedSecurities,
  setStagedTickers,
  setUnnamedRowNames,
  stagedRawTickers,
  stagedTradeAccounts,
  stagedTradeCounts,
  stagedTradeWindows,
  stageTradeRows,
  unnamedQuantities,
} from "./trade-import-queries";
import type { PublishTarget } from "./transaction-import-publisher";

export interface TradePublishOutcome {
  trades: number;
  securities_created: number;
  skipped_duplicates: number;
}

/** Rows per INSERT: progress is reported between them. */
const INSERT_BATCH = 1_000;

/** Sure's Account#supports_trades?, as the trades API checks it. */
function takesTrades(account: { accountType: string }): boolean {
  try {
    assertTakesTrades(account);
    return true;
  } catch {
    return false;
  }
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");

/**
 * Publishes a TradeImport inside the caller's transaction (all or nothing), set-based, as Sure's
 * TradeImport#import! does: each row a trade on the import's account (or the account its row
 * names, which must exist and take trades), its security found by ticker or made offline for the
 * family (Sure's resolver without a provider), amount = signed qty x price (the parser signed
 * both), label Buy/Sell by the quantity's sign. A row without a name is named as the trades API
 * names a trade ("Buy 10.0 shares of AAPL") rather than Sure's "Imported item". Duplicates are
 * skipped one for one: a row is one while the account has more trades of the same day, security,
 * quantity and price than earlier identical rows claimed (Sure's TradeImport has no such check).
 */
export async function publishTradeImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<TradePublishOutcome> {
  const { id: importId, familyId } = target;
  await stageTradeRows(tx, importId);
  await resolveAccounts(tx, target);
  const securitiesCreated = await resolveSecurities(tx, familyId, importId);
  await nameUnnamedRows(tx);

  await keepNewTrades(tx);
  const { last, kept, total } = await stagedTradeCounts(tx);
  for (let from = 0; from < last; from += INSERT_BATCH) {
    const to = from + INSERT_BATCH;
    await insertStagedTrades(tx, familyId, importId, from, to);
    await onProgress(Math.min(to, last));
  }

  await assertHoldingsWithinLimit(tx);
  // Holdings follow from these syncs.
  const windows = await stagedTradeWindows(tx);
  for (const window of windows) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
  return { trades: kept, securities_created: securitiesCreated, skipped_duplicates: total - kept };
}

/**
 * Accounts: the import's, else each row's by name (the oldest of a name, as the transaction
 * publisher resolves it). Every one must take trades (investment or crypto).
 */
async function resolveAccounts(tx: FinanceTx, target: PublishTarget): Promise<void> {
  await resolveStagedAccounts(tx, "trade_import_stage", target);
  const accounts = await stagedTradeAccounts(tx);
  const refused = accounts.filter((account) => !takesTrades({ accountType: account.account_type }));
  if (refused.length > 0) {
    const named = refused.map((account) => `"${account.name}" (${account.account_type})`).join(", ");
    throw new PublishError(`Trades go to investment or crypto accounts only, not ${named}`);
  }
}

/**
 * Securities by ticker, as the trades API reads one ("aapl|XNAS" is AAPL on XNAS; the row's
 * exchange column wins): the family's, else made offline with the exchange of the ticker's first
 * row and the import's id (its revert removes it). The family holds one security per ticker, so rows naming other exchanges share it.
 */
async function resolveSecurities(tx: FinanceTx, familyId: string, importId: string): Promise<number> {
  const parsed = (await stagedRawTickers(tx)).map((raw) => ({ raw, ...tickerOf(raw) }));
  const blank = parsed.filter((ticker) => ticker.ticker === "");
  if (blank.length > 0) throw new PublishError(`Ticker can't be blank: ${quoted(blank.map((ticker) => ticker.raw))}`);
  await setStagedTickers(tx, parsed);
  const created = await createStagedSecurities(tx, familyId, importId);
  await linkStagedSecurities(tx, familyId);
  return created;
}

/** Rows the file gave no name: the trades API's name, from the quantity's sign and the ticker as stored. */
async function nameUnnamedRows(tx: FinanceTx): Promise<void> {
  const pairs = await unnamedQuantities(tx);
  if (pairs.length === 0) return;
  const names = pairs.map(({ qty, ticker }) => {
    const signedQty = toScaled(qty, QTY_SCALE);
    return tradeName(signedQty < 0n ? "sell" : "buy", signedQty, ticker);
  });
  await setUnnamedRowNames(tx, pairs, names);
}

/**
 * The trades API's bound on daily holdings (securities x days since each one's first trade),
 * checked for every account the import wrote to: each sync of the account computes them all.
 */
async function assertHoldingsWithinLimit(tx: FinanceTx): Promise<void> {
  const over = await accountsOverHoldingLimit(tx);
  if (over.length > 0) {
    throw new PublishError(
      `An account holds at most ${MAX_HOLDING_ROWS.toLocaleString("en")} daily holdings (securities x days since each one's first trade): ${quoted(over)} would hold more`,
    );
  }
}
