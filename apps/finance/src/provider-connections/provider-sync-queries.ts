import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { risingIds } from "../rules/sql-ids";
import type { ProviderSyncFailure } from "./provider-sync-failure";

/** A sync the worker took off the queue, with what it needs to run it. */
export interface ClaimedProviderSync {
  id: string;
  familyId: string;
  connectionId: string;
  sealedCredentials: string;
  /** The hold's token: the finish must carry it (a worker that lost it writes nothing). */
  lease: Date;
}

/** Only one instance queues the due syncs at a time (a transaction-scoped advisory lock). */
const QUEUE_DUE_LOCK = Prisma.sql`hashtextextended('hearth:provider-syncs:queue-due', 0)`;

/** The provider sync worker's side of provider_syncs and provider_connections. */
export function createProviderSyncQueries(db: FinanceDb) {
  return {
    /** Runs whose worker died (lease lapsed) become stale, as Sure shows them; a later request or the daily sync queues the next. */
    markStale: (): Promise<number> => db.$executeRaw`
      UPDATE provider_syncs SET status = 'stale', lease_expires_at = NULL, updated_at = now()
       WHERE status = 'syncing' AND lease_expires_at < now()`,

    /**
     * Queues a sync of every connection in good standing whose latest sync is older than
     * `intervalMs` (Sure syncs its items daily), at most `limit` at once.
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
             ORDER BY c.created_at, c.id LIMIT ${limit})
          INSERT INTO provider_syncs (id, family_id, connection_id, status, created_at, updated_at)
          SELECT ${ids(Prisma.sql`ordinal`)}, family_id, id, 'pending', now(), now() FROM due`;
      });
    },

    /** The oldest queued run, held for `leaseMs` (several instances share the queue: SKIP LOCKED). */
    async claim(leaseMs: number): Promise<ClaimedProviderSync | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; connection_id: string; lease_expires_at: Date; sealed_credentials: string }[]>`
        WITH claimed AS (
          UPDATE provider_syncs SET status = 'syncing', syncing_at = now(), lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
           WHERE id = (SELECT id FROM provider_syncs WHERE status = 'pending' ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING id, family_id, connection_id, lease_expires_at)
        SELECT claimed.*, c.sealed_credentials FROM claimed JOIN provider_connections c ON c.id = claimed.connection_id`;
      if (!row) return null;
      return { id: row.id, familyId: row.family_id, connectionId: row.connection_id, sealedCredentials: row.sealed_credentials, lease: row.lease_expires_at };
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

    /** The access URL a claimed setup token gave, sealed: kept at once (the token works only once). */
    async storeClaimedCredentials(connectionId: string, sealedCredentials: string): Promise<void> {
      await db.providerConnection.updateMany({ where: { id: connectionId }, data: { sealedCredentials, credentialsKind: "access_url" } });
    },

    /** Back in the queue as it was (the worker is stopping), only while still held. */
    async release(claim: ClaimedProviderSync): Promise<void> {
      await db.providerSync.updateMany({
        where: { id: claim.id, status: "syncing", leaseExpiresAt: claim.lease },
        data: { status: "pending", syncingAt: null, leaseExpiresAt: null },
      });
    },

    /** Failed with a stable category, only while still held; credentials the provider refused make the connection requires_update. */
    async fail(claim: ClaimedProviderSync, failure: ProviderSyncFailure): Promise<void> {
      await db.$transaction(async (tx) => {
        const failed = await tx.providerSync.updateMany({
          where: { id: claim.id, status: "syncing", leaseExpiresAt: claim.lease },
          data: { status: "failed", error: failure.message, failedAt: new Date(), leaseExpiresAt: null },
        });
        if (failed.count === 1 && failure.requiresUpdate) {
          await tx.providerConnection.updateMany({ where: { id: claim.connectionId }, data: { status: "requires_update" } });
        }
      });
    },
  };
}
export type ProviderSyncQueries = ReturnType<typeof createProviderSyncQueries>;
