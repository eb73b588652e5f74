import type pg from "pg";
import type { Logger } from "../logger";
import { heartbeat, releaseJobLock, type ClaimedJobRow } from "./job-claims";
import { defaultBackoffMs, JobFailure, JobLost, JobRunnerStopping, type JobDefinition, type JobInfo, type RunningJob } from "./job-definition";
import { JOB_TRANSACTION, jobEndSql, jobHeldSql, type JobDb, type JobSql } from "./job-sql";

export type JobOutcome = "succeeded" | "failed" | "retried" | "cancelled" | "lost" | "released";

/** The job was cancelled (cancelJobs) while it ran. */
export class JobCancelled extends Error {
  constructor() {
    super("the job was cancelled");
  }
}

interface RunArgs<Tx extends JobSql> {
  db: JobDb<Tx>;
  log: Logger;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each queue's payload type is its own
  def: JobDefinition<any, Tx>;
  /** The connection holding the job's lock: its heartbeat, then the lock given back. */
  client: pg.PoolClient;
  /** Gives `client` back to its pool, or ends it (`destroy`); once only (a stopping runner may have ended it already). */
  release(destroy: boolean): void;
  row: ClaimedJobRow;
  signal: AbortSignal;
  abort(reason: Error): void;
  heartbeatMs?: number;
}

/** Runs one claimed job to its end, and writes that end (fenced by the job's lease token). */
export async function runClaimedJob<Tx extends JobSql>(args: RunArgs<Tx>): Promise<JobOutcome> {
  const { db, log, def, client, row, signal, abort } = args;
  const info: JobInfo = { id: row.id, queue: row.queue, familyId: row.family_id, subjectId: row.subject_id };
  const token = row.lease_token;
  let connectionLost = false;
  const onConnectionError = (err: Error) => {
    connectionLost = true;
    log.warn({ err, jobId: row.id }, "job runner: the connection holding a job's lock failed; the job stops");
    abort(new JobLost(row.id));
  };
  client.on("error", onConnectionError);
  const beats = startHeartbeat(client, row, args.heartbeatMs ?? 5_000, abort, () => (connectionLost = true));

  const lease = { id: row.id, leaseToken: token };
  const endAs = async (status: "succeeded" | "failed" | "cancelled", error: string | null, tx?: Tx): Promise<boolean> => {
    const write = (sql: JobSql) => jobEndSql(sql.$executeRaw.bind(sql), lease, status, error);
    return (await (tx ? write(tx) : db.$transaction(write, JOB_TRANSACTION))) === 1;
  };

  let outcome: JobOutcome;
  try {
    outcome = await run();
  } finally {
    await beats.stop();
    client.off("error", onConnectionError);
    await giveBack(client, args.release, row.id, connectionLost, log);
  }
  return outcome;

  async function run(): Promise<JobOutcome> {
    const maxAttempts = def.maxAttempts ?? 3;
    // A cancel asked for while its worker was gone: it is not run again.
    if (row.cancel_requested) return cancel();
    if (row.attempts > maxAttempts) return fail(`The job was interrupted ${maxAttempts} times and was not finished.`, "interrupted too often");
    const payload = def.payload.safeParse(row.payload);
    if (!payload.success) return fail("The job's data is not valid.", payload.error.message);
    let endedByTheJob = false;
    const assertHeld = async (tx: Tx) => {
      if ((await jobHeldSql(tx.$executeRaw.bind(tx), lease)) !== 1) throw new JobLost(row.id);
    };
    const job: RunningJob<unknown, Tx> = {
      ...info,
      payload: payload.data,
      attempt: row.attempts,
      takenOver: row.taken_over,
      claimed: row.on_claim ?? null,
      leaseToken: token,
      signal,
      complete: async (tx) => {
        if (!(await endAs("succeeded", null, tx))) throw new JobLost(row.id);
        endedByTheJob = true;
      },
      completeWith: async (sql, write) => {
        if (!(await write(jobEndSql(sql, lease, "succeeded", null)))) throw new JobLost(row.id);
        endedByTheJob = true;
      },
      assertHeld,
      inFence: (write, options = JOB_TRANSACTION) =>
        db.$transaction(async (tx) => {
          const written = await write(tx);
          await assertHeld(tx);
          return written;
        }, options),
    };
    try {
      await def.run(job);
      // Ended here unless the job wrote its end with its last write (complete, completeWith).
      return endedByTheJob || (await endAs("succeeded", null)) ? "succeeded" : lost();
    } catch (err) {
      // The signal's reason when the job stopped because of it; the job's own refusal otherwise.
      const aborted = signal.aborted ? (signal.reason as Error) : null;
      if (err instanceof JobLost || aborted instanceof JobLost) return lost();
      if (err instanceof JobFailure) return fail(err.message, err.message);
      if (aborted instanceof JobCancelled) return cancel();
      if (aborted instanceof JobRunnerStopping) return release();
      log.error({ err, jobId: row.id, queue: row.queue, attempt: row.attempts }, "job runner: the job failed");
      const message = err instanceof Error ? err.message : String(err);
      if (row.attempts >= maxAttempts) return fail("The job could not be finished.", message);
      return retry(message, (def.backoffMs ?? defaultBackoffMs)(row.attempts));
    }
  }

  function lost(): JobOutcome {
    log.warn({ jobId: row.id, queue: row.queue }, "job runner: the job is no longer this worker's; its work here is rolled back");
    return "lost";
  }

  /** Ends the job failed with `reason` for people, and its record with it (the queue's hook, in one transaction). */
  async function fail(reason: string, error: string): Promise<JobOutcome> {
    return (await endWithHook("failed", reason, error)) ? "failed" : "lost";
  }

  /** Ends a cancelled job; its record is told as of a failure, so it is never left waiting on it. */
  async function cancel(): Promise<JobOutcome> {
    return (await endWithHook("cancelled", "The job was cancelled.", "cancelled")) ? "cancelled" : "lost";
  }

  async function endWithHook(status: "failed" | "cancelled", reason: string, error: string): Promise<boolean> {
    return db.$transaction(async (tx) => {
      if (!(await endAs(status, error.slice(0, 2000), tx))) return false;
      await def.failed?.(tx, info, reason);
      return true;
    }, JOB_TRANSACTION);
  }

  /**
   * Back to the queue (after `backoffMs`, `attempts` less `uncount`), unless a newer job with its
   * key waits already: that one does the work, and this one ends as superseded.
   */
  async function requeue(backoffMs: number, error: string | null, uncount: 0 | 1): Promise<boolean> {
    const queued = await db.$transaction(
      (tx) => tx.$executeRaw`
        UPDATE jobs j
           SET status = CASE WHEN waiting.id IS NULL THEN 'queued' ELSE 'cancelled' END::"JobStatus",
               finished_at = CASE WHEN waiting.id IS NULL THEN NULL ELSE now() END,
               run_after = date_trunc('milliseconds', now()) + ${backoffMs} * interval '1 millisecond', attempts = j.attempts - ${uncount},
               last_error = CASE WHEN waiting.id IS NULL THEN coalesce(${error}, j.last_error) ELSE 'superseded by a newer job' END,
               lease_token = NULL, updated_at = now()
          FROM (SELECT 1) AS one
          LEFT JOIN LATERAL (
            SELECT w.id FROM jobs w, jobs me
             WHERE me.id = ${row.id}::uuid AND w.queue = me.queue AND w.dedupe_key = me.dedupe_key AND w.status = 'queued' LIMIT 1) AS waiting ON true
         WHERE j.id = ${row.id}::uuid AND j.lease_token = ${token}::uuid AND j.status = 'running'`,
      JOB_TRANSACTION,
    );
    return queued === 1;
  }

  async function retry(error: string, backoffMs: number): Promise<JobOutcome> {
    return (await requeue(backoffMs, error.slice(0, 2000), 0)) ? "retried" : "lost";
  }

  /** Back to the queue for another instance, this attempt not counted: the service stopped it. */
  async function release(): Promise<JobOutcome> {
    return (await requeue(0, null, 1)) ? "released" : "lost";
  }
}

/** Beats every `intervalMs` on the job's own connection; a lost or cancelled job is aborted. */
function startHeartbeat(client: pg.PoolClient, row: ClaimedJobRow, intervalMs: number, abort: (reason: Error) => void, onBroken: () => void) {
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => (clearTimeout(timer), resolve());
      });
      if (stopped) return;
      try {
        const state = await heartbeat(client, row.id, row.lease_token);
        if (state === "lost") abort(new JobLost(row.id));
        if (state === "cancel") abort(new JobCancelled());
      } catch {
        onBroken();
        abort(new JobLost(row.id));
        return;
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

/** The job's end is written: its lock goes back with the connection (ended instead when it failed). */
async function giveBack(client: pg.PoolClient, release: (destroy: boolean) => void, id: string, broken: boolean, log: Logger): Promise<void> {
  if (broken) return release(true);
  try {
    await releaseJobLock(client);
    release(false);
  } catch (err) {
    log.warn({ err, jobId: id }, "job runner: giving a job's lock back failed; its connection is ended instead");
    release(true);
  }
}
