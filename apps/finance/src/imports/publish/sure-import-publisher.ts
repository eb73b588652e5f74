import type { FinanceTx } from "../../db";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import { NdjsonContentError, readSureNdjson, SURE_NDJSON_LIMITS, type SureNdjsonReadResult } from "../ndjson";
import { ImportParseError } from "../parsing";
import { PublishError } from "./publish-error";
import { familySettingsRow, storedImportContent } from "./sure-import-queries";
import { publishAccounts } from "./sure/sure-accounts";
import { publishBalanceHistory } from "./sure/sure-balances";
import { publishBudgets } from "./sure/sure-budgets";
import { publishCategories, publishMerchants, publishTags } from "./sure/sure-catalog";
import { publishHoldings } from "./sure/sure-holdings";
import { idSource, SourceIdMap, type SurePublishContext } from "./sure/sure-publish-context";
import { publishRecurringTransactions } from "./sure/sure-recurring";
import { publishRules } from "./sure/sure-rules";
import { publishSecurities } from "./sure/sure-securities";
import { publishTrades } from "./sure/sure-trades";
import { publishTransactions } from "./sure/sure-transactions";
import { publishTransfers } from "./sure/sure-transfers";
import { publishValuations } from "./sure/sure-valuations";
import type { PublishTarget } from "./transaction-import-publisher";

/** Problems named in the error of a file that does not read at most (the import's error is kept to 2,000 characters). */
const PROBLEMS_NAMED = 5;

/**
 * The byte cap is the upload's (10 MB a request): an import session's content is several uploads
 * joined. The cap on records, what one publish writes, stays.
 */
const PUBLISH_LIMITS = { ...SURE_NDJSON_LIMITS, maxBytes: Number.MAX_SAFE_INTEGER };

/** The family's currency and the day its budget months start (Sure's defaults when it has no settings yet). */
async function familySettings(tx: FinanceTx, familyId: string): Promise<{ currency: string; monthStartDay: number }> {
  const row = await familySettingsRow(tx, familyId);
  return { currency: row?.currency ?? "USD", monthStartDay: row?.month_start_day ?? 1 };
}

/**
 * The import's NDJSON read as the upload read it; a file-level refusal or any line's problem fails
 * the publish. The content is fetched here and let go with this call: only the records stay for
 * the writes (an import session's content is up to 64 MB).
 */
async function readStoredContent(tx: FinanceTx, target: PublishTarget, currency: string): Promise<SureNdjsonReadResult> {
  const { id, familyId } = target;
  const content = await storedImportContent(tx, familyId, id);
  if (content === null) throw new PublishError("The import no longer exists.");
  let read: SureNdjsonReadResult;
  try {
    read = await readSureNdjson(content, PUBLISH_LIMITS, { defaultCurrency: currency, maxReportedProblems: PROBLEMS_NAMED, owner: { key: familyId } });
  } catch (err) {
    if (err instanceof NdjsonContentError || err instanceof ImportParseError) throw new PublishError(err.message);
    throw err;
  }
  if (read.errorCount > 0) {
    const more = read.errorCount > read.errors.length ? ` …and ${read.errorCount - read.errors.length} more.` : "";
    throw new PublishError(`The file has ${read.errorCount} problem(s): ${read.errors.map((error) => error.message).join(" ")}${more}`);
  }
  return read;
}

/**
 * Publishes a SureImport inside the caller's transaction (all or nothing): Sure's
 * Family::DataImporter over Hearth's tables. The import's NDJSON is read again, then written in
 * the file's dependency order, each record's source id mapped to the row it became so later
 * records name the new rows: accounts (with their opening balances), categories (parents first),
 * tags, merchants, recurring transactions, transactions, transfers and rejected transfers,
 * trades and holdings (securities found or made by ticker), valuations, then the balance
 * history, budgets and their lines, rules. Every record it makes (not one it finds by name,
 * ticker or period) carries the import's id: its revert removes them. Balances and holdings are
 * Hearth's computations from entries, trades and prices, made by the syncs queued here for every
 * account the import made: Holding and Balance records become what makes those computations
 * give the file's figures (trades and prices of the holdings no trade explains, reconciliations
 * of the balances no entry explains). Progress counts NDJSON lines done.
 */
export async function publishSureImport(
  tx: FinanceTx,
  target: PublishTarget,
  onProgress: (rowsDone: number) => Promise<void>,
): Promise<Record<string, number>> {
  const { id: importId, familyId } = target;
  const settings = await familySettings(tx, familyId);
  const { records } = await readStoredContent(tx, target, settings.currency);

  let done = 0;
  const context: SurePublishContext = {
    tx,
    familyId,
    importId,
    newId: await idSource(tx),
    ids: new SourceIdMap(),
    linesDone: async (lines) => {
      if (lines === 0) return;
      done += lines;
      await onProgress(done);
    },
  };

  const accounts = await publishAccounts(context, records);
  const categories = await publishCategories(context, records.Category);
  const tags = await publishTags(context, records.Tag);
  const merchants = await publishMerchants(context, records.Merchant);
  const recurring = await publishRecurringTransactions(context, records.RecurringTransaction);
  const transactions = await publishTransactions(context, records.Transaction);
  const transfers = await publishTransfers(context, records.Transfer, records.RejectedTransfer);
  const securities = await publishSecurities(context, [...records.Trade, ...records.Holding]);
  const trades = await publishTrades(context, records.Trade, records.Account, securities);
  const holdings = await publishHoldings(context, records, securities);
  const valuations = await publishValuations(context, records.Valuation);
  // Last of the ledger: what every entry above gives is what the Balance records are held against.
  const balances = await publishBalanceHistory(context, records);
  const budgets = await publishBudgets(context, records.Budget, records.BudgetCategory, settings.monthStartDay);
  const rules = await publishRules(context, records.Rule);

  for (const account of records.Account) await requestAccountSync(tx, familyId, context.ids.required("accounts", account.source_id, account.line), null);
  return {
    ...accounts,
    ...categories,
    ...tags,
    ...merchants,
    ...recurring,
    ...transactions,
    ...transfers,
    ...trades,
    ...holdings,
    ...valuations,
    ...balances,
    ...budgets,
    ...rules,
  };
}
