import type { SureValuationValues } from "../../ndjson";
import { inBatches, type SurePublishContext } from "./sure-publish-context";
import { insertValuations } from "./sure-valuation-queries";

/**
 * import_valuations: each Valuation record an entry of kind valuation of its account (with the
 * import's id), its kind as the file has it (opening and current anchors, reconciliations). The
 * reader refused two of one account and day; an opening balance the import made precedes them all.
 */
export async function publishValuations(context: SurePublishContext, records: readonly SureValuationValues[]) {
  const { tx, familyId, importId } = context;
  const rows = records.map((record) => ({ ...record, id: context.newId(), accountId: context.ids.required("accounts", record.account_id, record.line) }));
  await inBatches(context, rows, (batch) => insertValuations(tx, familyId, importId, batch));
  return { valuations: rows.length };
}
