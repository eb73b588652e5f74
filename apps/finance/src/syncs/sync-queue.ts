import type { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { bumpLedgerVersion } from "../ledger/ledger-version";

type Tx = Prisma.TransactionClient;

/**
 * Asks for an account's balances to be recomputed from `fromDate` forward, in the same database
 * transaction as the change that needs it (so a committed change always has its sync). A sync
 * still pending for the account widens its window instead of queuing another one.
 */
export async function requestAccountSync(tx: Tx, familyId: string, accountId: string, fromDate: string | null): Promise<void> {
  // Every change that needs a sync changes the family's ledger: cached list totals go stale.
  await bumpLedgerVersion(tx, familyId);
  const from = fromDate === null ? null : dateOf(fromDate);
  // A null window start means "from the first entry": it wins over any date.
  const widened = await tx.$executeRaw`
    UPDATE syncs
       SET window_start_date = CASE WHEN window_start_date IS NULL OR ${from}::date IS NULL THEN NULL
                                    ELSE LEAST(window_start_date, ${from}::date) END,
           updated_at = now()
     WHERE syncable_id = ${accountId}::uuid AND syncable_type = 'Account' AND status = 'pending' AND parent_id IS NULL`;
  if (widened > 0) return;
  await tx.sync.create({ data: { familyId, syncableType: "Account", syncableId: accountId, windowStartDate: from } });
}

/** The in-process signal a committed change sends so the worker starts at once instead of at its next poll. */
export interface SyncSignal {
  poke(): void;
}
