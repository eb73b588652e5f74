import type { SureTransactionValues } from "../../ndjson";
import { chunksOf, inBatches, type SurePublishContext } from "./sure-publish-context";
import { insertEntryTags, insertTransactionEntries, type TransactionEntry } from "./sure-transaction-queries";

export interface TransactionsOutcome {
  transactions: number;
  /** Split transactions: each of their lines became a transaction of its own. */
  split_transactions: number;
}

/**
 * The entries one Transaction record becomes. Hearth has no split transactions: a split one is
 * written as its lines (they sum to it, so the account's balance is the same), each keeping
 * what Sure's import_split_lines! gives it: the parent's merchant, tags and kind unless the line
 * names its own. A transfer may name a line (its id maps to the line's entry); the parent's id
 * maps to nothing.
 */
function entriesOf(context: SurePublishContext, record: SureTransactionValues): TransactionEntry[] {
  const { ids } = context;
  const accountId = ids.required("accounts", record.account_id, record.line);
  const tagIdsOf = (sourceIds: string[]) => sourceIds.map((tagId) => ids.required("tags", tagId, record.line));
  const parent = {
    accountId,
    date: record.date,
    currency: record.currency,
    merchantId: ids.get("merchants", record.merchant_id),
    tagIds: tagIdsOf(record.tag_ids),
  };
  if (record.split_lines.length === 0) {
    const id = context.newId();
    ids.set("transactions", record.source_id, id);
    return [
      {
        ...parent,
        id,
        amountCents: record.amount_cents,
        name: record.name,
        notes: record.notes,
        excluded: record.excluded,
        categoryId: ids.get("categories", record.category_id),
        kind: record.kind,
      },
    ];
  }
  return record.split_lines.map((line) => {
    const id = context.newId();
    if (line.source_id !== null) ids.set("transactions", line.source_id, id);
    return {
      ...parent,
      id,
      amountCents: line.amount_cents,
      name: line.name,
      notes: line.notes,
      excluded: line.excluded,
      categoryId: ids.get("categories", line.category_id),
      merchantId: line.merchant_id_provided ? ids.get("merchants", line.merchant_id) : parent.merchantId,
      kind: line.kind ?? record.kind,
      tagIds: line.tag_ids === null ? parent.tagIds : tagIdsOf(line.tag_ids),
    };
  });
}

/**
 * import_transactions: each Transaction record an entry of its account (with the import's id,
 * so its revert removes it), under the new ids of its category, merchant and tags, with its
 * notes, excluded flag and kind. Rules are not applied: the file is the family's finished
 * ledger (Sure's importer does not run them either).
 */
export async function publishTransactions(context: SurePublishContext, records: readonly SureTransactionValues[]): Promise<TransactionsOutcome> {
  const { tx, familyId, importId } = context;
  let written = 0;
  await inBatches(context, records, async (batch) => {
    const entries = batch.flatMap((record) => entriesOf(context, record));
    written += entries.length;
    await insertTransactionEntries(tx, familyId, importId, entries);
    const tags = entries.flatMap((entry) => entry.tagIds.map((tagId) => ({ entryId: entry.id, tagId })));
    for (const chunk of chunksOf(tags)) await insertEntryTags(tx, chunk);
  });
  return { transactions: written, split_transactions: records.filter((record) => record.split_lines.length > 0).length };
}
