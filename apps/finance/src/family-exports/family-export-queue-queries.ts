import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";

/** Family export builds: one job per export asked for (docs/background-jobs.md). */
export const FAMILY_EXPORT_QUEUE = "finance.family-export";

/** Queues the export's build in the transaction that created it. */
export const queueFamilyExport = (tx: FinanceTx, familyId: string, exportId: string) =>
  enqueueJob(tx, { queue: FAMILY_EXPORT_QUEUE, familyId, subjectId: exportId, dedupeKey: exportId });

/**
 * Queues a job for every export waiting or being built without one (asked for on an instance
 * from before the job runner, during a deploy, or restored from a backup): how many.
 */
export function queueOrphanedExports(db: FinanceDb): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, run_after)
    SELECT ${FAMILY_EXPORT_QUEUE}, x.family_id, x.id, x.id::text, x.created_at FROM family_exports x
     WHERE x.status IN ('pending', 'processing')
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${FAMILY_EXPORT_QUEUE} AND j.subject_id = x.id AND j.status IN ('queued', 'running'))
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}
