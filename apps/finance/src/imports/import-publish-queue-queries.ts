import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";

/** Import publishes: one job per publish asked for (docs/background-jobs.md). */
export const IMPORT_PUBLISH_QUEUE = "finance.import-publish";

/** Queues the import's publish in the transaction that set it importing. */
export const queueImportPublish = (tx: FinanceTx, familyId: string, importId: string) =>
  enqueueJob(tx, { queue: IMPORT_PUBLISH_QUEUE, familyId, subjectId: importId, dedupeKey: importId });

/**
 * Queues a job for every import left importing without one (set importing by an instance from
 * before the job runner, during a deploy, or restored from a backup): how many.
 */
export function queueOrphanedPublishes(db: FinanceDb): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
    SELECT ${IMPORT_PUBLISH_QUEUE}, i.family_id, i.id, i.id::text FROM imports i
     WHERE i.status = 'importing'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${IMPORT_PUBLISH_QUEUE} AND j.subject_id = i.id AND j.status IN ('queued', 'running'))
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}
