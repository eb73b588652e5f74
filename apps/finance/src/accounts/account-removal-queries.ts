import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";

/** The job queue that removes accounts scheduled for deletion: one job per account (its id is the subject and key). */
export const ACCOUNT_REMOVAL_QUEUE = "finance.account-removal";

/** Queues the removal of an account just scheduled for deletion, in that change's transaction. */
export function queueAccountRemoval(tx: FinanceTx, familyId: string, accountId: string) {
  return enqueueJob(tx, { queue: ACCOUNT_REMOVAL_QUEUE, familyId, subjectId: accountId, dedupeKey: accountId });
}

/** Queues a removal for every account scheduled for deletion that has none (left by an instance from before the job runner). */
export function queueOrphanedRemovals(db: FinanceDb, limit = 1_000): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
    SELECT ${ACCOUNT_REMOVAL_QUEUE}, a.family_id, a.id, a.id::text FROM accounts a
     WHERE a.status = 'pending_deletion'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${ACCOUNT_REMOVAL_QUEUE} AND j.subject_id = a.id AND j.status IN ('queued', 'running'))
     LIMIT ${limit}
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}
