import type { FinanceDb, FinanceTx } from "../db";
import { dateOf, isoDateOf } from "../ledger/dates";
import { bumpLedgerVersion } from "../ledger/ledger-version";

/**
 * Asks for an account's balances to be recomputed from `fromDate` forward, in the same database
 * transaction as the change that needs it (so a committed change always has its sync). A sync
 * still pending for the account widens its window instead of queuing another one.
 */
export async function requestAccountSync(tx: FinanceTx, familyId: string, accountId: string, fromDate: string | null): Promise<void> {
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

/** A sync the worker took off the queue. */
export interface ClaimedSync {
  id: string;
  familyId: string;
  syncableType: string;
  syncableId: string;
  /** Null: from the first entry. */
  windowStart: string | null;
}

export interface SyncOutcome {
  error?: string | undefined;
  windowEnd?: string | null | undefined;
}

/** The worker's side of the syncs table: claiming, finishing and re-queuing runs. */
export function createSyncQueueQueries(db: FinanceDb) {
  return {
    /** The oldest pending run, marked syncing; several instances share the queue (SKIP LOCKED). */
    async claim(): Promise<ClaimedSync | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; syncable_type: string; syncable_id: string; window_start_date: Date | null }[]>`
        UPDATE syncs SET status = 'syncing', syncing_at = now(), updated_at = now()
         WHERE id = (SELECT id FROM syncs WHERE status = 'pending' AND parent_id IS NULL
                      ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, family_id, syncable_type, syncable_id, window_start_date`;
      if (!row) return null;
      return {
        id: row.id,
        familyId: row.family_id,
        syncableType: row.syncable_type,
        syncableId: row.syncable_id,
        windowStart: row.window_start_date ? isoDateOf(row.window_start_date) : null,
      };
    },

    async finish(id: string, outcome: SyncOutcome): Promise<void> {
      await db.sync.update({
        where: { id },
        data: outcome.error
          ? { status: "failed", failedAt: new Date(), error: outcome.error }
          : { status: "completed", completedAt: new Date(), ...(outcome.windowEnd ? { windowEndDate: dateOf(outcome.windowEnd) } : {}) },
      });
    },

    /** One account's run within a family sync, already running. */
    startChild(parent: ClaimedSync, accountId: string) {
      return db.sync.create({
        data: { familyId: parent.familyId, syncableType: "Account", syncableId: accountId, parentId: parent.id, status: "syncing", syncingAt: new Date() },
      });
    },

    /** Runs left "syncing" by a stopped instance never finish: they become stale and their accounts are queued again. */
    async requeueStale(): Promise<void> {
      const stale = await db.$queryRaw<{ syncable_id: string; family_id: string }[]>`
        UPDATE syncs SET status = 'stale', updated_at = now()
         WHERE status = 'syncing' AND syncing_at < now() - interval '10 minutes' AND parent_id IS NULL
        RETURNING syncable_id, family_id`;
      for (const sync of stale) {
        await db.sync.create({ data: { familyId: sync.family_id, syncableType: "Account", syncableId: sync.syncable_id } });
      }
    },
  };
}
export type SyncQueueQueries = ReturnType<typeof createSyncQueueQueries>;
