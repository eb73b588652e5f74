import { identityKeyOf } from "../../../recurring/recurring-identity";
import type { SureRecurringTransactionValues } from "../../ndjson";
import { inBatches, type SurePublishContext } from "./sure-publish-context";
import { insertRecurringTransactions } from "./sure-recurring-queries";

/**
 * import_recurring_transactions: each under its account's and merchant's new ids. One the family
 * has already (the same account, currency, amount and merchant or name: Hearth's identity key,
 * where Sure's unique indexes would refuse the file) is left as it is and counted as skipped.
 */
export async function publishRecurringTransactions(context: SurePublishContext, records: readonly SureRecurringTransactionValues[]) {
  const { tx, familyId, ids } = context;
  const rows = records.map((record) => {
    const accountId = ids.get("accounts", record.account_id);
    const merchantId = ids.get("merchants", record.merchant_id);
    const identityKey = identityKeyOf({ accountId, merchantId, name: record.name, amountCents: record.amount_cents, currency: record.currency });
    return { ...record, id: context.newId(), accountId, merchantId, identityKey };
  });
  let written = 0;
  await inBatches(context, rows, async (batch) => {
    written += await insertRecurringTransactions(tx, familyId, context.importId, batch);
  });
  return { recurring_transactions: written, skipped_recurring_transactions: rows.length - written };
}
