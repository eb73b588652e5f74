import type { FinanceTx } from "../db";
import { isoDateOf } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";

/**
 * Deletes the fee transactions of these transfers (Sure: has_many :fee_transactions, dependent:
 * :destroy) and resyncs each account they were in from the fee's date. Runs in the caller's
 * transaction, before the transfers go (the foreign key would take the fees silently).
 */
export async function removeFeesOf(tx: FinanceTx, familyId: string, transferIds: string[]): Promise<void> {
  if (transferIds.length === 0) return;
  const fees = await tx.$queryRaw<{ account_id: string; date: Date }[]>`
    DELETE FROM entries WHERE fee_of_transfer_id = ANY(${transferIds}::uuid[]) RETURNING account_id, date`;
  if (fees.length === 0) return;
  const earliest = new Map<string, Date>();
  for (const fee of fees) {
    const seen = earliest.get(fee.account_id);
    if (!seen || fee.date < seen) earliest.set(fee.account_id, fee.date);
  }
  for (const [accountId, date] of earliest) await requestAccountSync(tx, familyId, accountId, isoDateOf(date));
}
