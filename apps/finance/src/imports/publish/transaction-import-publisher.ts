import { minorUnitDigits } from "@hearth/contracts";
import type { FinanceTx } from "../../db";
import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import { applyRulesToImportedEntries } from "../../rules/rules-on-create";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import { pickTagColor } from "../../tags/tag-colors";
import { createCategories, createTags } from "./catalog-queries";
import { PublishError } from "./publish-error";
import { resolveStagedAccounts } from "./staged-accounts";
import {
  claimStagedDuplicates,
  keepNewTransactions,
  insertStagedTransactions,
  linkStagedCategories,
  markKnownExternalIds,
  setStagedCurrencies,
  stagedCurrencySwaps,
  stagedCategoryNames,
  stagedTagNames,
  stagedTransactionCounts,
  stagedTransactionWindows,
  stageTransactionRows,
  tagStagedEntries,
} from "./transaction-import-queries";

export interface PublishTarget {
  id: string;
  familyId: string;
  /** The account every row goes to; null: each row names its account. */
  accountId: string | null;
}

export interface PublishOutcome {
  transactions: number;
  skipped_duplicates: number;
  /** Of the duplicates, the existing transactions claimed: the row's category, tags and notes set on them. */
  claimed_duplicates: number;
}

/**
 * Rows that name their account (no account_id) were read in the family's currency, and take their
 * account's: the same numbers, unless the two have different decimals (USD's cents are no yen),
 * where the amounts would be 100 times off. Such an import is refused, saying how to read it.
 */
async function assertSameMinorUnits(tx: FinanceTx): Promise<void> {
  const off = (await stagedCurrencySwaps(tx)).filter((swap) => minorUnitDigits(swap.read_in) !== minorUnitDigits(swap.account_currency));
  if (off.length === 0) return;
  const [first] = off;
  throw new PublishError(
    `Account "${first!.account_name}" is in ${first!.account_currency}, but the rows for it were read as ${first!.read_in} amounts, which have other decimals: import them with that account's account_id, or with a currency column`,
  );
}

/** Rows per INSERT: progress is reported between them. */
const INSERT_BATCH = 1_000;

/**
 * Publishes a TransactionImport inside the caller's transaction (all or nothing), set-based:
 * the valid rows are staged in a temporary table, their accounts, categories and tags resolved
 * (missing categories and tags are made, as Sure's mappings make them; an account must exist),
 * duplicates skipped one for one (a row is a duplicate while the account has more entries of
 * the same day, amount, currency and name than earlier identical rows claimed), the rest
 * written with the import's id, the family's rules applied to them, and syncs queued.
 * A duplicate claims the transaction it matched (claimStagedDuplicates), as Sure's import does.
 * Rows that carry an external_id (OFX's FITID; CSV rows never do) are matched by it instead:
 * skipped when the account has it already (source 'ofx') or an earlier row of the file had it,
 * written with it, and counted against only entries without one in the day/amount/name match.
 */
export async function publishTransactionImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<PublishOutcome> {
  const { id: importId, familyId } = target;
  await stageTransactionRows(tx, importId);
  await resolveStagedAccounts(tx, "import_stage", target);
  await setStagedCurrencies(tx);
  await assertSameMinorUnits(tx);

  // Categories and tags by exact name, made when missing (with the import's id: its revert removes them; one the family has is left as it is).
  const categories = await stagedCategoryNames(tx);
  if (categories.length > 0) {
    await createCategories(
      tx,
      categories.map((name) => ({ familyId, name, color: DEFAULT_CATEGORY_COLOR, icon: suggestIcon(name), importId })),
    );
    await linkStagedCategories(tx, familyId);
  }
  const tags = await stagedTagNames(tx);
  if (tags.length > 0)
    await createTags(
      tx,
      tags.map((name) => ({ familyId, name, color: pickTagColor(), importId })),
    );

  await markKnownExternalIds(tx);
  await keepNewTransactions(tx);
  const claimed = await claimStagedDuplicates(tx, familyId, importId);
  const { last, kept, total } = await stagedTransactionCounts(tx);
  for (let from = 0; from < last; from += INSERT_BATCH) {
    await insertStagedTransactions(tx, familyId, importId, from, from + INSERT_BATCH);
    await onProgress(Math.min(from + INSERT_BATCH, last));
  }
  await tagStagedEntries(tx, familyId);

  await applyRulesToImportedEntries(tx, familyId, importId);
  const windows = await stagedTransactionWindows(tx);
  for (const window of windows) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
  return { transactions: kept, skipped_duplicates: total - kept, claimed_duplicates: claimed };
}
