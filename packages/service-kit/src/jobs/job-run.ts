import type pg from "pg";
import type { Logger } from "../logger";
import { heartbeat, releaseJobLock, type ClaimedJobRow } from "./job-claims";
import { defaultBackoffMs, JobFailure, JobLost, JobRunnerStopping, type JobDefinition, type JobInfo, type RunningJob } from "./job-definition";
import type { JobDb, JobSql } from "./job-sql";

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

  const endAs = async (status: "succeeded" | "failed" | "cancelled", error: string | null, tx?: Tx): Promise<boolean> => {
    const write = (sql: JobSql) => sql.$executeRaw`
      UPDATE jobs SET status = ${status}::"JobStatus", finished_at = now(), last_error = coalesce(${error}, last_error),
                      lease_token = NULL, updated_at = now()
       WHERE id = ${row.id}::uuid AND lease_token = ${token}::uuid AND status = 'running'`;
    return (await (tx ? write(tx) : db.$transaction(write))) === 1;
  };

  let outcome: JobOutcome;
  try {
    outcome = await run();
  } finally {
    await beats.stop();
    client.off("error", onConnectionError);
    await giveBack(client, row.id, connectionLost, log);
  }
  return outcome;

  async function run(): Promise<JobOutcome> {
    const maxAttempts = def.maxAttempts ?? 3;
    if (row.attempts > maxAttempts) return fail(`The job was interrupted ${maxAttempts} times and was not finished.`, "interrupted too often");
    const payload = def.payload.safeParse(row.payload);
    if (!payload.success) return fail("The job's data is not valid.", payload.error.message);
    const job: RunningJob<unknown, Tx> = {
      ...info,
      payload: payload.data,
      attempt: row.attempts,
      takenOver: row.taken_over,
      signal,
      complete: async (tx) => {
        if (!(await endAs("succeeded", null, tx))) throw new JobLost(row.id);
      },
      assertHeld: async (tx) => {
        const held = await tx.$executeRaw`
          UPDATE jobs SET heartbeat_at = now() WHERE id = ${row.id}::uuid AND lease_token = ${token}::uuid AND status = 'running'`;
        if (held !== 1) throw new JobLost(row.id);
      },
    };
    try {
      await def.run(job);
      // Ended here unless the job wrote its end with its last transaction (complete).
      await endAs("succeeded", null);
      return "succeeded";
    } catch (err) {
      const reason = signal.aborted ? (signal.reason as Error) : err;
      if (reason instanceof JobLost) {
        log.warn({ jobId: row.id, queue: row.queue }, "job runner: the job is no longer this worker's; its work here is rolled back");
        return "lost";
      }
      if (reason instanceof JobCancelled) return (await endAs("cancelled", null)) ? "cancelled" : "lost";
      if (reason instanceof JobRunnerStopping) return release();
      if (err instanceof JobFailure) return fail(err.message, err.message);
      log.error({ err, jobId: row.id, queue: row.queue, attempt: row.attempts }, "job runner: the job failed");
      const message = err instanceof Error ? err.message : String(err);
      if (row.attempts >= maxAttempts) return fail("The job could not be finished.", message);
      return retry(message, (def.backoffMs ?? defaultBackoffMs)(row.attempts));
    }
  }

  async function fail(reason: string, error: string): Promise<JobOutcome> {
    const ended = await db.$transaction(async (tx) => {
      if (!(await endAs("failed", error.slice(0, 2000), tx))) return false;
      await def.failed?.(tx, info, reason);
      return true;
    });
    return ended ? "failed" : "lost";
  }

  async function retry(error: string, backoffMs: number): Promise<JobOutcome> {
    const queued = await db.$transaction(
      (tx) => tx.$executeRaw`
        UPDATE jobs SET status = 'queued', run_after = now() + ${backoffMs} * interval '1 millisecond', last_error = ${error.slice(0, 2000)},
                        lease_token = NULL, updated_at = now()
         WHERE id = ${row.id}::uuid AND lease_token = ${token}::uuid AND status = 'running'`,
    );
    return queued === 1 ? "retried" : "lost";
  }

  /** Back to the queue for another instance, this attempt not counted: the service stopped it. */
  async function release(): Promise<JobOutcome> {
    const queued = await db.$transaction(
      (tx) => tx.$executeRaw`
        UPDATE jobs SET status = 'queued', attempts = attempts - 1, run_after = now(), lease_token = NULL, updated_at = now()
         WHERE id = ${row.id}::uuid AND lease_token = ${token}::uuid AND status = 'running'`,
    );
    return queued === 1 ? "released" : "lost";
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
async function giveBack(client: pg.PoolClient, id: string, broken: boolean, log: Logger): Promise<void> {
  if (broken) return client.release(true);
  try {
    await releaseJobLock(client, id);
    client.release();
  } catch (err) {
    log.warn({ err, jobId: id }, "job runner: giving a job's lock back failed; its connection is ended instead");
    client.release(true);
  }
}
