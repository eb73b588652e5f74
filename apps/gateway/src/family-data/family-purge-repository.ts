import type { FamilyDataService } from "@hearth/contracts";
import { enqueueJob } from "@hearth/service-kit/jobs";
import type { IdentityDb, IdentityTx } from "../db";

export type FamilyPurgeKind = "reset" | "family_deleted";

/** Family purges: one job per purge (docs/background-jobs.md). */
export const FAMILY_PURGE_QUEUE = "gateway.family-purge";

export interface StartedPurge {
  id: string;
  familyId: string;
  kind: FamilyPurgeKind;
  pendingServices: FamilyDataService[];
}

/** The gateway's record of family purges in progress: written with the request and its job, worked by the job. */
export function createFamilyPurgeRepository(db: IdentityDb) {
  return {
    /** The family's reset that has not finished yet, if one was asked for; read in `tx` when given (under the family's lock). */
    openReset: (familyId: string, tx: IdentityTx | IdentityDb = db) =>
      tx.familyPurge.findFirst({ where: { familyId, kind: "reset", completedAt: null }, orderBy: { createdAt: "asc" } }),

    /** A purge and its job, in the caller's transaction. */
    async create(tx: IdentityTx, purge: { familyId: string; kind: FamilyPurgeKind; requestedById: string | null; services: readonly FamilyDataService[] }) {
      const created = await tx.familyPurge.create({
        data: { familyId: purge.familyId, kind: purge.kind, requestedById: purge.requestedById, pendingServices: [...purge.services] },
      });
      await enqueueJob(tx, { queue: FAMILY_PURGE_QUEUE, familyId: purge.familyId, subjectId: created.id, dedupeKey: created.id });
      return created;
    },

    /**
     * Queues a job for every purge not completed without one (asked for on a gateway from before
     * the job runner, or restored from a backup): how many.
     */
    queueOrphaned: (): Promise<number> => db.$executeRaw`
      INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, run_after)
      SELECT ${FAMILY_PURGE_QUEUE}, p.family_id, p.id, p.id::text, p.created_at FROM family_purges p
       WHERE p.completed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${FAMILY_PURGE_QUEUE} AND j.subject_id = p.id AND j.status IN ('queued', 'running'))
      ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`,

    /** The purge, not completed, its run counted; null when it completed. */
    async begin(id: string): Promise<StartedPurge | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; kind: FamilyPurgeKind; pending_services: FamilyDataService[] }[]>`
        UPDATE family_purges SET attempts = attempts + 1 WHERE id = ${id}::uuid AND completed_at IS NULL
        RETURNING id, family_id, kind, pending_services`;
      return row ? { id: row.id, familyId: row.family_id, kind: row.kind, pendingServices: row.pending_services } : null;
    },

    /** One service holds nothing more of the family: it is not asked again, even after a restart. */
    async serviceDone(id: string, service: FamilyDataService): Promise<void> {
      await db.$executeRaw`UPDATE family_purges SET pending_services = array_remove(pending_services, ${service}) WHERE id = ${id}::uuid`;
    },

    async complete(tx: IdentityTx, id: string): Promise<void> {
      await tx.familyPurge.update({ where: { id }, data: { completedAt: new Date(), lastError: null } });
    },

    /** Why a run stopped short (it is tried again from where it stopped, after a backoff). */
    async noteFailure(id: string, error: string): Promise<void> {
      await db.familyPurge.update({ where: { id }, data: { lastError: error.slice(0, 1000) } });
    },
  };
}
export type FamilyPurgeRepository = ReturnType<typeof createFamilyPurgeRepository>;
