import type { JobSql } from "./job-sql";

export interface JobRequest {
  queue: string;
  familyId: string;
  /** The record the job works on (an import, an export...): what cancelJobs finds it by. */
  subjectId?: string | null;
  /** A job of this queue waiting with the same key is that job: no second one is queued. */
  dedupeKey?: string | null;
  payload?: unknown;
  /** Not before then (a debounce, a backoff chosen by the caller). */
  runAfter?: Date | null;
  /**
   * A debounce: the waiting job with the key (if any) moves to this request's `runAfter` when
   * that is later, so a burst of requests makes one run, after the last of them.
   */
  postpone?: boolean;
}

/**
 * Queues a job in the caller's transaction: it exists if and only if the change that asked for
 * it commits. With a dedupe key, a job of the queue already waiting with that key is answered
 * instead (`created: false`); a running one does not count, so a change made while it runs gets
 * a run of its own after it.
 */
export async function enqueueJob(tx: JobSql, job: JobRequest): Promise<{ id: string; created: boolean }> {
  if (job.postpone && job.dedupeKey) return enqueuePostponing(tx, job);
  // A few tries: a conflicting job may start running between the insert and the read of it.
  for (let round = 0; ; round++) {
    const queued = await enqueueOnce(tx, job);
    if (queued || round === 2) {
      if (!queued) throw new Error(`job of ${job.queue} with key ${job.dedupeKey} could not be queued`);
      return queued;
    }
  }
}

async function enqueueOnce(tx: JobSql, job: JobRequest): Promise<{ id: string; created: boolean } | null> {
  const payload = JSON.stringify(job.payload ?? {});
  const dedupeKey = job.dedupeKey ?? null;
  // "Now" is truncated, not rounded, to run_after's millisecond: rounded up, it would not be due yet.
  const rows = await tx.$queryRaw<{ id: string; created: boolean }[]>`
    WITH inserted AS (
      INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, payload, run_after)
      VALUES (${job.queue}, ${job.familyId}::uuid, ${job.subjectId ?? null}::uuid, ${dedupeKey}, ${payload}::jsonb,
              coalesce(${job.runAfter ?? null}::timestamptz, date_trunc('milliseconds', now())))
      ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING
      RETURNING id)
    SELECT id::text, true AS created FROM inserted
    UNION ALL
    SELECT id::text, false FROM jobs
     WHERE queue = ${job.queue} AND dedupe_key = ${dedupeKey} AND status = 'queued' AND NOT EXISTS (SELECT 1 FROM inserted)`;
  if (rows[0]) return rows[0];
  // The waiting job that conflicted was committed by another transaction after this statement's snapshot.
  const [existing] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM jobs WHERE queue = ${job.queue} AND dedupe_key = ${dedupeKey} AND status = 'queued' LIMIT 1`;
  return existing ? { id: existing.id, created: false } : null;
}

/** Queues the job, or moves the one waiting with its key to the later of the two times (one statement: no race to retry). */
async function enqueuePostponing(tx: JobSql, job: JobRequest): Promise<{ id: string; created: boolean }> {
  const [row] = await tx.$queryRaw<{ id: string; created: boolean }[]>`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, payload, run_after)
    VALUES (${job.queue}, ${job.familyId}::uuid, ${job.subjectId ?? null}::uuid, ${job.dedupeKey}, ${JSON.stringify(job.payload ?? {})}::jsonb,
            coalesce(${job.runAfter ?? null}::timestamptz, date_trunc('milliseconds', now())))
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL
    DO UPDATE SET run_after = GREATEST(jobs.run_after, EXCLUDED.run_after), updated_at = now()
    RETURNING id::text, (xmax = 0) AS created`;
  return row!;
}

/**
 * Cancels the jobs of a queue on a subject: waiting ones at once, running ones by asking their
 * worker (its job's `signal` aborts at its next heartbeat). How many were found.
 */
export async function cancelJobs(tx: JobSql, queue: string, subjectId: string): Promise<number> {
  return tx.$executeRaw`
    UPDATE jobs SET status = CASE WHEN status = 'queued' THEN 'cancelled'::"JobStatus" ELSE status END,
                    finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                    cancel_requested_at = coalesce(cancel_requested_at, now()), updated_at = now()
     WHERE queue = ${queue} AND subject_id = ${subjectId}::uuid AND status IN ('queued', 'running')`;
}
