import { JobLost, enqueueJob, jobHeldSql, type JobLease, type RunningJob } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { dateOf, isoDateOf } from "../ledger/dates";

/** The job queue that runs balance syncs: one job per top-level sync row (the sync's id is its subject and key). */
export const BALANCE_SYNC_QUEUE = "finance.balance-sync";

/**
 * Asks for an account's balances to be recomputed from `fromDate` forward, in the same database
 * transaction as the change that needs it (so a committed change always has its sync): what every
 * write of an account's entries, or of the rates and prices its balances use, calls. A sync still
 * pending for the account widens its window instead of queuing another one. (The family's ledger
 * version and transaction count are the database's: ledger-version-queries.ts.)
 */
export async function requestAccountSync(tx: FinanceTx, familyId: string, accountId: string, fromDate: string | null): Promise<void> {
  // The family's writers queue here until they commit, so an account keeps one pending sync. Two
  // writers that each found none inserted one apiece, and the next two widened both in opposite
  // orders: deadlocks (56 of 400 parallel POSTs answered 500 in the reliability suite's rolling
  // restart once the version bump, which queued them before, moved to a commit-time trigger).
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.ledger-write:' || ${familyId}, 0))`;
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
  const sync = await tx.sync.create({ data: { familyId, syncableType: "Account", syncableId: accountId, windowStartDate: from } });
  await queueSyncJob(tx, familyId, sync.id);
}

/** A sync of the whole family (every account in full, then transfer matching), with its job. */
/**
 * The daily family syncs are queued under this lock, for the transaction's life: one instance at a
 * time, and a family purge's pass over the syncs waits for a run under way to commit (see
 * family-data-repository.ts), so no sync it queued is left behind uncommitted and unseen.
 */
export async function lockDailySyncs(tx: FinanceTx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.daily-sync', 0))`;
}

export async function queueFamilySync(tx: FinanceTx, familyId: string) {
  const sync = await tx.sync.create({ data: { familyId, syncableType: "Family", syncableId: familyId } });
  await queueSyncJob(tx, familyId, sync.id);
  return sync;
}

function queueSyncJob(tx: FinanceTx, familyId: string, syncId: string) {
  return enqueueJob(tx, { queue: BALANCE_SYNC_QUEUE, familyId, subjectId: syncId, dedupeKey: syncId });
}

/** A sync its job is running. */
export interface StartedSync {
  id: string;
  familyId: string;
  syncableType: string;
  syncableId: string;
  /** Null: from the first entry. */
  windowStart: string | null;
}

/**
 * A waiting sync's start, written by its job's claim in the claim's own transaction (the queue's
 * onClaim: no round trip of its own on the path of every write's balances). Only a sync still
 * pending, and only when its row is free: a writer widening it (a provider sync's or a rule run's
 * long transaction) would hold the claim, and with it every family's sync claims on every
 * instance, until it commits. Then, and for a retried or taken-over run, `start` starts it inside
 * the job, and marks its children stale.
 */
export const START_PENDING_SYNC_ON_CLAIM = `
  UPDATE syncs s SET status = 'syncing', syncing_at = now(), updated_at = now()
   WHERE s.id IN (SELECT p.id FROM syncs p JOIN claimed c ON p.id = c.subject_id::uuid AND p.family_id = c.family_id::uuid
                   WHERE p.status = 'pending' AND p.parent_id IS NULL FOR UPDATE OF p SKIP LOCKED)
  RETURNING s.id::text AS id, s.family_id::text AS family_id, s.syncable_type, s.syncable_id::text AS syncable_id,
            to_char(s.window_start_date, 'YYYY-MM-DD') AS window_start`;

const StartedOnClaim = z.object({
  id: z.string(),
  family_id: z.string(),
  syncable_type: z.string(),
  syncable_id: z.string(),
  window_start: z.string().nullable(),
});

/** The sync START_PENDING_SYNC_ON_CLAIM started (`job.claimed`), or null when it started none. */
export function startedOnClaim(claimed: unknown): StartedSync | null {
  if (claimed === null || claimed === undefined) return null;
  const row = StartedOnClaim.parse(claimed);
  return { id: row.id, familyId: row.family_id, syncableType: row.syncable_type, syncableId: row.syncable_id, windowStart: row.window_start };
}

export interface SyncOutcome {
  error?: string | undefined;
  windowEnd?: string | null | undefined;
}

/**
 * The job's side of the syncs table: starting, finishing and failing runs, each in a transaction
 * the job's fence (assertHeld / complete) is checked in, so a worker that lost its job writes
 * nothing. Claims, leases and takeovers are the job runner's.
 */
export function createSyncQueueQueries(db: FinanceDb) {
  return {
    /**
     * Marks the sync running and reads its window (a request widening it after this waits for the
     * row and then queues a run of its own); a run taken over from a dead worker starts again, the
     * per-account runs that worker had started stale. One statement, fenced by the job's lease (a
     * sync's start is on the path of every write's balances; an interactive transaction took 7.6 ms
     * of it). Null when the sync ended or went meanwhile; throws JobLost when the job is no longer
     * this worker's.
     */
    async start(job: JobLease, familyId: string, id: string): Promise<StartedSync | null> {
      const [row] = await db.$queryRaw<
        {
          held: number;
          id: string | null;
          family_id: string | null;
          syncable_type: string | null;
          syncable_id: string | null;
          window_start_date: Date | null;
        }[]
      >`
        WITH held AS (${jobHeldSql(Prisma.sql, job)}),
        started AS (
          UPDATE syncs SET status = 'syncing', syncing_at = now(), updated_at = now()
           WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid AND status IN ('pending', 'syncing') AND parent_id IS NULL
             AND EXISTS (SELECT 1 FROM held)
          RETURNING id, family_id, syncable_type, syncable_id, window_start_date),
        stale AS (
          UPDATE syncs SET status = 'stale', updated_at = now() WHERE parent_id IN (SELECT id FROM started) AND status = 'syncing')
        SELECT (SELECT count(*)::int FROM held) AS held, s.id::text, s.family_id::text, s.syncable_type, s.syncable_id::text, s.window_start_date
          FROM (SELECT 1) AS one LEFT JOIN started s ON true`;
      if (!row || row.held !== 1) throw new JobLost(job.id);
      if (!row.id || !row.family_id || !row.syncable_type || !row.syncable_id) return null;
      return {
        id: row.id,
        familyId: row.family_id,
        syncableType: row.syncable_type,
        syncableId: row.syncable_id,
        windowStart: row.window_start_date ? isoDateOf(row.window_start_date) : null,
      };
    },

    /**
     * Records how a run ended with its job's end (completeWith), in one statement: the last write on
     * the path of every write's balances. Throws JobLost, writing neither, when the job is no longer
     * this worker's.
     */
    finishRun(job: Pick<RunningJob<object, FinanceTx>, "completeWith">, id: string, outcome: SyncOutcome): Promise<void> {
      const failed = outcome.error !== undefined;
      const windowEnd = outcome.windowEnd ? dateOf(outcome.windowEnd) : null;
      return job.completeWith(Prisma.sql, async (jobEnd) => {
        const [row] = await db.$queryRaw<{ ended: boolean }[]>`
          WITH ended AS (${jobEnd}),
          finished AS (
            UPDATE syncs SET status = ${failed ? "failed" : "completed"}::"SyncStatus",
                             failed_at = CASE WHEN ${failed} THEN now() ELSE failed_at END,
                             completed_at = CASE WHEN ${failed} THEN completed_at ELSE now() END,
                             error = CASE WHEN ${failed} THEN ${outcome.error ?? null} ELSE error END,
                             window_end_date = coalesce(${windowEnd}::date, window_end_date), updated_at = now()
             WHERE id = ${id}::uuid AND status = 'syncing' AND EXISTS (SELECT 1 FROM ended))
          SELECT EXISTS (SELECT 1 FROM ended) AS ended`;
        return row?.ended === true;
      });
    },

    /** Records how a family run's per-account run ended; false when it is no longer running. */
    async finish(tx: FinanceTx, id: string, outcome: SyncOutcome): Promise<boolean> {
      const { count } = await tx.sync.updateMany({
        where: { id, status: "syncing" },
        data: outcome.error
          ? { status: "failed", failedAt: new Date(), error: outcome.error }
          : { status: "completed", completedAt: new Date(), ...(outcome.windowEnd ? { windowEndDate: dateOf(outcome.windowEnd) } : {}) },
      });
      return count > 0;
    },

    /** One account's run within a family sync, already running (it lives and dies with its parent's job). */
    startChild(tx: FinanceTx, parent: StartedSync, accountId: string) {
      return tx.sync.create({
        data: { familyId: parent.familyId, syncableType: "Account", syncableId: accountId, parentId: parent.id, status: "syncing", syncingAt: new Date() },
      });
    },

    /** The sync's job ended failed or cancelled (`reason` for people): so does the sync, and its started children go stale. */
    async fail(tx: FinanceTx, id: string, reason: string): Promise<void> {
      await tx.sync.updateMany({ where: { id, status: { in: ["pending", "syncing"] } }, data: { status: "failed", failedAt: new Date(), error: reason } });
      await tx.sync.updateMany({ where: { parentId: id, status: "syncing" }, data: { status: "stale" } });
    },

    /**
     * The daily sync: a family sync for every family with accounts that has had none since the
     * start of `today` (UTC), at most `limit` at a time. Run at every instance's start and every
     * ten minutes (the job runner's reconcile), it also catches up after downtime; the advisory
     * lock keeps two instances from queuing one family twice. Returns how many were queued.
     */
    async queueDailyFamilySyncs(today: string, limit = 500): Promise<number> {
      return db.$transaction(async (tx) => {
        await lockDailySyncs(tx);
        const due = await tx.$queryRaw<{ family_id: string }[]>`
          SELECT families.family_id FROM (SELECT DISTINCT family_id FROM accounts WHERE status <> 'pending_deletion') AS families
           WHERE NOT EXISTS (SELECT 1 FROM syncs
                              WHERE syncs.family_id = families.family_id AND syncs.syncable_type = 'Family'
                                AND syncs.parent_id IS NULL AND syncs.created_at >= ${dateOf(today)})
           LIMIT ${limit}`;
        for (const { family_id } of due) await queueFamilySync(tx, family_id);
        return due.length;
      });
    },

    /**
     * Queues a job for every waiting or running sync that has none (left by an instance from
     * before the job runner, or restored from a backup), a batch at a time. How many were queued.
     */
    queueOrphaned(limit = 1_000): Promise<number> {
      return db.$executeRaw`
        INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
        SELECT ${BALANCE_SYNC_QUEUE}, s.family_id, s.id, s.id::text FROM syncs s
         WHERE s.status IN ('pending', 'syncing') AND s.parent_id IS NULL
           AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${BALANCE_SYNC_QUEUE} AND j.subject_id = s.id AND j.status IN ('queued', 'running'))
         LIMIT ${limit}
        ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
    },
  };
}
export type SyncQueueQueries = ReturnType<typeof createSyncQueueQueries>;
