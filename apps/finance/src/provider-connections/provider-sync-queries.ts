import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { risingIds } from "../rules/rising-id-sql";
import type { ProviderSyncFailure } from "./provider-sync-failure";

/** Provider syncs: one job per sync run (docs/background-jobs.md). */
export const PROVIDER_SYNC_QUEUE = "finance.provider-sync";

/** A sync run being started, with what it needs to run. */
export interface StartedProviderSync {
  id: string;
  familyId: string;
  connectionId: string;
  sealedCredentials: string;
}

/** Queues a sync run of a connection, and its job, in the caller's transaction. */
export async function queueProviderSync(tx: FinanceTx, familyId: string, connectionId: string): Promise<void> {
  const sync = await tx.providerSync.create({ data: { familyId, connectionId }, select: { id: true } });
  await enqueueJob(tx, { queue: PROVIDER_SYNC_QUEUE, familyId, subjectId: sync.id, dedupeKey: sync.id });
}

/** Only one instance queues the due syncs at a time (a transaction-scoped advisory lock). */
const QUEUE_DUE_LOCK = Prisma.sql`hashtextextended('hearth:provider-syncs:queue-due', 0)`;

/** The provider sync job's side of provider_syncs and provider_connections. */
export function createProviderSyncQueries(db: FinanceDb) {
  return {
    /**
     * Queues a sync (and its job) of every connection in good standing whose latest sync is
     * older than `intervalMs` (Sure syncs its items daily), at most `limit` at once.
     */
    queueDue(intervalMs: number, limit: number): Promise<number> {
      return db.$transaction(async (tx) => {
        const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${QUEUE_DUE_LOCK}) AS taken`;
        if (!lock?.taken) return 0;
        const ids = risingIds();
        return tx.$executeRaw`
          WITH due AS (
            SELECT c.id, c.family_id, row_number() OVER (ORDER BY c.created_at, c.id) AS ordinal
              FROM provider_connections c
             WHERE c.status = 'good'
               AND NOT EXISTS (SELECT 1 FROM provider_syncs s WHERE s.connection_id = c.id
                                 AND (s.status IN ('pending', 'syncing') OR s.created_at > now() - ${intervalMs} * interval '1 millisecond'))
             ORDER BY c.created_at, c.id LIMIT ${limit}),
          queued AS (
            INSERT INTO provider_syncs (id, family_id, connection_id, status, created_at, updated_at)
            SELECT ${ids(Prisma.sql`ordinal`)}, family_id, id, 'pending', now(), now() FROM due
            RETURNING id, family_id)
          INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
          SELECT ${PROVIDER_SYNC_QUEUE}, family_id, id, id::text FROM queued`;
      });
    },

    /**
     * Queues a job for every run waiting or running without one (queued by an instance from
     * before the job runner, during a deploy, or restored from a backup): how many.
     */
    queueOrphaned: (): Promise<number> => db.$executeRaw`
      INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, run_after)
      SELECT ${PROVIDER_SYNC_QUEUE}, s.family_id, s.id, s.id::text, s.created_at FROM provider_syncs s
       WHERE s.status IN ('pending', 'syncing')
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${PROVIDER_SYNC_QUEUE} AND j.subject_id = s.id AND j.status IN ('queued', 'running'))
      ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`,

    /** The run set syncing (again, after a takeover), with its connection's credentials; null when it ended or went with its connection. */
    async start(tx: FinanceTx, familyId: string, id: string): Promise<StartedProviderSync | null> {
      const [row] = await tx.$queryRaw<{ id: string; family_id: string; connection_id: string; sealed_credentials: string }[]>`
        WITH started AS (
          UPDATE provider_syncs SET status = 'syncing', syncing_at = now(), updated_at = now()
           WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid AND status IN ('pending', 'syncing')
          RETURNING id, family_id, connection_id)
        SELECT started.*, c.sealed_credentials FROM started JOIN provider_connections c ON c.id = started.connection_id`;
      return row ? { id: row.id, familyId: row.family_id, connectionId: row.connection_id, sealedCredentials: row.sealed_credentials } : null;
    },

    /** Since when transactions are asked for: the start of the latest completed run (null: never completed). */
    async lastCompletedStart(connectionId: string): Promise<Date | null> {
      const sync = await db.providerSync.findFirst({
        where: { connectionId, status: "completed" },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: { syncingAt: true, createdAt: true },
      });
      return sync ? (sync.syncingAt ?? sync.createdAt) : null;
    },

    /** The access URL a claimed setup token gave, sealed: kept at once (the token works only once), over that token only. */
    async storeClaimedCredentials(connectionId: string, claimedToken: string, sealedCredentials: string): Promise<void> {
      await db.providerConnection.updateMany({
        where: { id: connectionId, sealedCredentials: claimedToken },
        data: { sealedCredentials, credentialsKind: "access_url" },
      });
    },

    /** The connection's sealed credentials as stored now. */
    async sealedCredentialsOf(connectionId: string): Promise<string | null> {
      const found = await db.providerConnection.findUnique({ where: { id: connectionId }, select: { sealedCredentials: true } });
      return found?.sealedCredentials ?? null;
    },

    /** Back in the queue as it was (the service is stopping). */
    async backToQueue(tx: FinanceTx, id: string): Promise<void> {
      await tx.providerSync.updateMany({ where: { id, status: "syncing" }, data: { status: "pending", syncingAt: null } });
    },

    /** Failed with a stable category; credentials the provider refused make the connection requires_update. */
    async fail(tx: FinanceTx, id: string, failure: ProviderSyncFailure): Promise<void> {
      const failed = await tx.providerSync.updateManyAndReturn({
        where: { id, status: { in: ["pending", "syncing"] } },
        data: { status: "failed", error: failure.message, failedAt: new Date() },
        select: { connectionId: true },
      });
      if (failed[0] && failure.requiresUpdate) {
        await tx.providerConnection.updateMany({ where: { id: failed[0].connectionId }, data: { status: "requires_update" } });
      }
    },
  };
}
export type ProviderSyncQueries = ReturnType<typeof createProviderSyncQueries>;
