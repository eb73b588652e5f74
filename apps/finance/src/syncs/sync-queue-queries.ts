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
  await queueAccountWindow(tx, familyId, accountId, fromDate === null ? null : dateOf(fromDate));
}

/**
 * Queues a recomputation of the account from `from` (null: from its first entry). A pending run
 * for the account takes the earlier start of the two; a running one is left alone (it may have
 * read the ledger already), so a new run is queued after it.
 */
async function queueAccountWindow(tx: FinanceTx, familyId: string, accountId: string, from: Date | null): Promise<void> {
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

interface AbandonedSync {
  id: string;
  family_id: string;
  syncable_type: string;
  syncable_id: string;
  window_start_date: Date | null;
}

/**
 * The worker's side of the syncs table: claiming, renewing, finishing and re-queuing runs. A
 * claim is a lease on the database clock: the run is its worker's while the row is `syncing`
 * and the lease is renewed; once the lease runs out any instance marks the run stale and queues
 * it again, and the late worker can no longer finish it.
 */
export function createSyncQueueQueries(db: FinanceDb) {
  return {
    /** The oldest pending run, marked syncing under a lease of `leaseMs`; several instances share the queue (SKIP LOCKED). */
    async claim(leaseMs: number): Promise<ClaimedSync | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; syncable_type: string; syncable_id: string; window_start_date: Date | null }[]>`
        UPDATE syncs SET status = 'syncing', syncing_at = now(), lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
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

    /** Extends a claim's lease (its children live and die with it); false when the run is no longer ours. */
    async renew(id: string, leaseMs: number): Promise<boolean> {
      const renewed = await db.$executeRaw`
        UPDATE syncs SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
         WHERE id = ${id}::uuid AND status = 'syncing'`;
      return renewed > 0;
    },

    /** Records how a run ended; false (and nothing written) when it was re-queued meanwhile as abandoned. */
    async finish(id: string, outcome: SyncOutcome): Promise<boolean> {
      const { count } = await db.sync.updateMany({
        where: { id, status: "syncing" },
        data: outcome.error
          ? { status: "failed", failedAt: new Date(), error: outcome.error, leaseExpiresAt: null }
          : { status: "completed", completedAt: new Date(), leaseExpiresAt: null, ...(outcome.windowEnd ? { windowEndDate: dateOf(outcome.windowEnd) } : {}) },
      });
      return count > 0;
    },

    /** One account's run within a family sync, already running (held by its parent's lease). */
    startChild(parent: ClaimedSync, accountId: string) {
      return db.sync.create({
        data: { familyId: parent.familyId, syncableType: "Account", syncableId: accountId, parentId: parent.id, status: "syncing", syncingAt: new Date() },
      });
    },

    /**
     * The daily sync: a family sync for every family with accounts that has had none since the
     * start of `today` (UTC), at most `limit` at a time. Run on a timer by every instance, it also
     * catches up after downtime; the advisory lock keeps two instances from queuing one family twice.
     * Returns how many were queued.
     */
    async queueDailyFamilySyncs(today: string, limit = 500): Promise<number> {
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.daily-sync', 0))`;
        const due = await tx.$queryRaw<{ family_id: string }[]>`
          SELECT families.family_id FROM (SELECT DISTINCT family_id FROM accounts WHERE status <> 'pending_deletion') AS families
           WHERE NOT EXISTS (SELECT 1 FROM syncs
                              WHERE syncs.family_id = families.family_id AND syncs.syncable_type = 'Family'
                                AND syncs.parent_id IS NULL AND syncs.created_at >= ${dateOf(today)})
           LIMIT ${limit}`;
        if (due.length === 0) return 0;
        await tx.sync.createMany({ data: due.map(({ family_id }) => ({ familyId: family_id, syncableType: "Family", syncableId: family_id })) });
        return due.length;
      });
    },

    /**
     * Runs whose lease ran out (their instance stopped or stalled) become stale and are queued
     * again: an account's with the same window (merged into a pending run, never narrower), a
     * family's as a family sync. Children of a run no longer syncing become stale with it (their
     * family run is the one re-queued). Returns how many runs were queued again.
     */
    async requeueExpired(): Promise<number> {
      return db.$transaction(async (tx) => {
        // Claims from before leases existed have none: they get the old ten minutes.
        const abandoned = await tx.$queryRaw<AbandonedSync[]>`
          UPDATE syncs SET status = 'stale', lease_expires_at = NULL, updated_at = now()
           WHERE status = 'syncing' AND parent_id IS NULL
             AND COALESCE(lease_expires_at, syncing_at + interval '10 minutes') < now()
          RETURNING id, family_id, syncable_type, syncable_id, window_start_date`;
        await tx.$executeRaw`
          UPDATE syncs child SET status = 'stale', lease_expires_at = NULL, updated_at = now()
           WHERE child.status = 'syncing' AND child.parent_id IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM syncs parent WHERE parent.id = child.parent_id AND parent.status = 'syncing')`;
        for (const sync of abandoned) {
          if (sync.syncable_type === "Family") await queueFamilySync(tx, sync.family_id);
          else await queueAccountWindow(tx, sync.family_id, sync.syncable_id, sync.window_start_date);
        }
        return abandoned.length;
      });
    },
  };
}
export type SyncQueueQueries = ReturnType<typeof createSyncQueueQueries>;

/** A family sync, unless one is already waiting (it recomputes everything anyway). */
async function queueFamilySync(tx: FinanceTx, familyId: string): Promise<void> {
  const waiting = await tx.sync.findFirst({ where: { familyId, syncableType: "Family", status: "pending", parentId: null }, select: { id: true } });
  if (!waiting) await tx.sync.create({ data: { familyId, syncableType: "Family", syncableId: familyId } });
}
