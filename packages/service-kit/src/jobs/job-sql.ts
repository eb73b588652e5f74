/**
 * The tables every service that runs background jobs includes in its schema (Prisma models `Job`
 * and `JobFamilyTurn`; docs/background-jobs.md), and the SQL the job runner shares.
 *
 * A running job's worker holds a session-level advisory lock on the job, taken in the statement
 * sequence that claims it and kept by a connection of its own until the job's end is written.
 * PostgreSQL drops the lock with the connection, so "running, and its lock is free" means the
 * worker is gone: its job is taken over at once, and never while a live worker holds it.
 */
export const JOBS_TABLE = "jobs";

/** The job's advisory lock key (bigint), for a SQL expression naming the job's id. */
export const jobLockKey = (idSql: string) => `hashtextextended('hearth.job:' || ${idSql}::text, 0)`;

/**
 * True when nobody holds the job's lock: read from pg_locks, which takes no lock itself (trying
 * the lock to find out would, for a moment, make a live claim of it fail).
 */
export const jobLockFree = (idSql: string) => `NOT EXISTS (
  SELECT 1 FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid = ((${jobLockKey(idSql)} >> 32) & 4294967295)::oid
     AND l.objid = (${jobLockKey(idSql)} & 4294967295)::oid)`;

/**
 * Options of the short transactions jobs write in (an outcome, a fence check, a job's end): a busy
 * service's pool may make one wait for a connection longer than Prisma's 2 s default, and a job
 * that failed on that alone would wait out a retry's backoff.
 */
export const JOB_TRANSACTION = { maxWait: 30_000, timeout: 60_000 } as const;

/** Serialises claims of one family in one queue, so its running limit holds over every instance. */
export const familyClaimLockKey = (queueSql: string, familySql: string) => `hashtextextended('hearth.job-family:' || ${queueSql} || ':' || ${familySql}, 0)`;

/**
 * A template tag that builds or runs one statement (Prisma.sql builds a fragment to put in a
 * statement of the caller's; a client's $executeRaw runs it): the job's fences are written once,
 * here, for the runner and for a job's one-statement writes alike.
 */
export type SqlTag<R> = (strings: TemplateStringsArray, ...values: unknown[]) => R;

/** The claim a job's writes are fenced by. */
export interface JobLease {
  id: string;
  leaseToken: string;
}

/** Touches the job's heartbeat when it is still this lease's: its row returned (as `id`) when it is. */
export const jobHeldSql = <R>(sql: SqlTag<R>, job: JobLease): R =>
  sql`UPDATE jobs SET heartbeat_at = now() WHERE id = ${job.id}::uuid AND lease_token = ${job.leaseToken}::uuid AND status = 'running' RETURNING id`;

/** Ends the job as `status` when it is still this lease's: its row returned (as `id`) when it was. */
export const jobEndSql = <R>(sql: SqlTag<R>, job: JobLease, status: "succeeded" | "failed" | "cancelled", error: string | null): R =>
  sql`UPDATE jobs SET status = ${status}::"JobStatus", finished_at = now(), last_error = coalesce(${error}, last_error),
                      lease_token = NULL, updated_at = now()
       WHERE id = ${job.id}::uuid AND lease_token = ${job.leaseToken}::uuid AND status = 'running' RETURNING id`;

/** The minimal surface of a Prisma client or transaction client the job runner needs. */
export interface JobSql {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
}

/** A database client that runs interactive transactions of `Tx` (a service's Prisma client). */
export interface JobDb<Tx extends JobSql> {
  $transaction<T>(fn: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
}
