import type { FinanceTx } from "../db";
import { removeFeesOf } from "./transfer-fee-queries";

/**
 * Removes every transfer with a side in the account, and turns the other sides (in other
 * accounts, which stay) back into standard transactions, as Sure's Transfer#destroy does: a
 * transaction keeps no transfer kind without its transfer. Runs in the caller's transaction.
 */
export async function unlinkTransfersOf(tx: FinanceTx, familyId: string, accountId: string): Promise<void> {
  // Their fee transactions go with them (those in other accounts too, which are resynced).
  const transfers = await tx.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM transfers t JOIN entries e ON e.id IN (t.inflow_entry_id, t.outflow_entry_id) WHERE e.account_id = ${accountId}::uuid`;
  await removeFeesOf(
    tx,
    familyId,
    transfers.map((t) => t.id),
  );
  await tx.$executeRaw`
    WITH gone AS (
      DELETE FROM transfers t USING entries e
       WHERE e.account_id = ${accountId}::uuid AND e.id IN (t.inflow_entry_id, t.outflow_entry_id)
      RETURNING t.inflow_entry_id, t.outflow_entry_id)
    UPDATE entries SET transaction_kind = 'standard', updated_at = now()
     WHERE account_id <> ${accountId}::uuid
       AND id IN (SELECT inflow_entry_id FROM gone UNION ALL SELECT outflow_entry_id FROM gone)`;
}
