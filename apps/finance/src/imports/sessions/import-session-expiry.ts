import { JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../../db";
import { deleteSession, deleteUnfinishedImport, IMPORT_SESSION_EXPIRY_QUEUE, lockExpiredSession, queueSessionExpiries } from "./import-session-expiry-queries";

/** How long an unpublished session is kept after its last chunk (or its creation). */
export const IMPORT_SESSION_TTL_MS = 7 * 86_400_000;

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
        const expired = await lockExpiredSession(tx, job.familyId, sessionId, ttlMs);
        if (!expired) return;
        if (expired.importId) await deleteUnfinishedImport(tx, expired.importId);
        if ((await deleteSession(tx, job.familyId, sessionId)) !== 1) throw new JobLost(job.id);
      });
    },
    /** Queues the expiry of every session past its time that has none waiting. */
    reconcile: () => queueSessionExpiries(db, ttlMs),
  };
}
