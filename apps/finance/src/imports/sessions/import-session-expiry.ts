import { JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";

/** Import sessions left unpublished: deleted with their chunks a while after their last change. */
export const IMPORT_SESSION_EXPIRY_QUEUE = "finance.import-session-expiry";

/** How long an unpublished session is kept after its last chunk (or its creation). */
export const IMPORT_SESSION_TTL_MS = 7 * 86_400_000;

/** Unpublished: no import, or one that did not complete (failed or pending again); never one importing or complete. */
const UNPUBLISHED = Prisma.sql`(s.import_id IS NULL OR NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = s.import_id AND i.status IN ('importing', 'complete', 'reverting')))`;

/**
 * Deletes an import session left unpublished past its time, its chunks and its unfinished import
 * with it (a session's chunks count against the family's import storage). Checked again when the
 * job runs: a session changed or published since is kept, and asked about again later.
 */
export function importSessionExpiryJob(db: FinanceDb, ttlMs = IMPORT_SESSION_TTL_MS): JobDefinition<object, FinanceTx> {
  return {
    queue: IMPORT_SESSION_EXPIRY_QUEUE,
    payload: z.object({}),
    async run(job) {
      if (!job.subjectId) return;
      const sessionId = job.subjectId;
      await db.$transaction(async (tx) => {
        await job.complete(tx);
        const [expired] = await tx.$queryRaw<{ import_id: string | null }[]>`
          SELECT s.import_id::text FROM import_sessions s
           WHERE s.id = ${sessionId}::uuid AND s.family_id = ${job.familyId}::uuid
             AND s.updated_at < now() - ${ttlMs} * interval '1 millisecond' AND ${UNPUBLISHED}
             FOR UPDATE OF s`;
        if (!expired) return;
        if (expired.import_id) await tx.import.deleteMany({ where: { id: expired.import_id, status: { in: ["pending", "failed"] } } });
        const removed = await tx.importSession.deleteMany({ where: { id: sessionId, familyId: job.familyId } });
        if (removed.count !== 1) throw new JobLost(job.id);
      });
    },
    /** Queues the expiry of every session past its time that has none waiting. */
    reconcile: () => db.$executeRaw`
      INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
      SELECT ${IMPORT_SESSION_EXPIRY_QUEUE}, s.family_id, s.id, s.id::text FROM import_sessions s
       WHERE s.updated_at < now() - ${ttlMs} * interval '1 millisecond' AND ${UNPUBLISHED}
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${IMPORT_SESSION_EXPIRY_QUEUE} AND j.subject_id = s.id AND j.status IN ('queued', 'running'))
       LIMIT 1000
      ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`,
  };
}
