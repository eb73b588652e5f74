import type { z } from "zod";
import type { JobSql, SqlTag } from "./job-sql";

/** What a job is about, in any of its states. */
export interface JobInfo {
  id: string;
  queue: string;
  familyId: string;
  subjectId: string | null;
}

/** A job being run by this worker. */
export interface RunningJob<P, Tx extends JobSql> extends JobInfo {
  payload: P;
  /** 1 on the first run; more after a retry or a takeover. */
  attempt: number;
  /** The previous worker died while running it: what it wrote outside its transactions may be there. */
  takenOver: boolean;
  /**
   * This claim's lease: a write that must be one statement (a hot path, where an interactive
   * transaction's round trips show) fences itself with a CTE of jobHeldSql(sql, job), and treats
   * no row from it as JobLost.
   */
  leaseToken: string;
  /** The row the queue's `onClaim` statement returned when this job was claimed (null: none, or it was taken over). */
  claimed: unknown;
  /** Aborts when the job is cancelled, is no longer this worker's, or the service stops (its reason says which). */
  signal: AbortSignal;
  /**
   * In the transaction that writes the job's outcome: marks it succeeded with those writes. Throws
   * JobLost (rolling them back) when the job is no longer this worker's.
   */
  complete(tx: Tx): Promise<void>;
  /**
   * Ends the job succeeded in one statement of the job's, with its record's end (one round trip
   * where complete's transaction takes four: a hot path's last write). `write` runs a statement
   * holding `end` (built with `sql`, e.g. a CTE \`ended AS (end)\`) and answers whether `end`
   * returned its row; when not, the job is no longer this worker's and JobLost is thrown.
   */
  completeWith<R>(sql: SqlTag<R>, write: (end: R) => Promise<boolean>): Promise<void>;
  /** In a transaction that writes for the job: throws JobLost when it is no longer this worker's. */
  assertHeld(tx: Tx): Promise<void>;
  /**
   * Runs `write` in a transaction of its own and checks the fence last, just before the commit:
   * the job's row is locked only for that moment (parallel writes of one job and its heartbeat do
   * not queue behind each other), and a worker that lost the job has the write rolled back.
   */
  inFence<T>(write: (tx: Tx) => Promise<T>, options?: { maxWait?: number; timeout?: number }): Promise<T>;
}

/** A queue: what its jobs carry, how many run at once, how they are retried, and the work itself. */
export interface JobDefinition<P, Tx extends JobSql> {
  queue: string;
  payload: z.ZodType<P>;
  /** Jobs of this queue one instance runs at once (default 1). */
  concurrency?: number;
  /** Jobs of one family running at once in this queue, over every instance (default 1). */
  perFamilyLimit?: number;
  /** Runs of a job, retries and takeovers included, before it ends failed (default 3). */
  maxAttempts?: number;
  /** Wait before the next attempt after attempt `n` failed (default 5 s doubling, at most 10 minutes). */
  backoffMs?(attempt: number): number;
  /** Queues this queue's jobs may queue work on (an import's balance syncs): poked when one of its jobs ends, so that work starts now. */
  pokes?: readonly string[];
  /**
   * A data-modifying statement the claim runs in its own transaction on the job it took (a hot
   * path's first write, with no round trip of its own): SQL without parameters over the CTE
   * `claimed` (the job's row: id, family_id, subject_id, as text), its first row handed to `run`
   * as `job.claimed`. Not run on a takeover: `run` then does that work itself.
   */
  onClaim?: string;
  /** The work. A JobFailure ends the job failed at once with its reason; any other error is retried. */
  run(job: RunningJob<P, Tx>): Promise<void>;
  /**
   * The job ended failed or cancelled (for `reason`, a sentence for people), in the transaction
   * that marks it so: put the record it worked on in its failed state.
   */
  failed?(tx: Tx, job: JobInfo, reason: string): Promise<void>;
  /**
   * Queues the jobs this queue's records should have and do not (a record left waiting by a
   * deploy or a restore): how many. Run at start and every ten minutes.
   */
  reconcile?(): Promise<number>;
}

/** Ends a job failed without retrying; `message` is the reason people are shown. */
export class JobFailure extends Error {}

/** The job is no longer this worker's (taken over, cancelled or ended): what it wrote is rolled back. */
export class JobLost extends Error {
  constructor(id: string) {
    super(`job ${id} is no longer this worker's`);
  }
}

/** The service is stopping: a job it interrupts waits for the next instance, its attempt not counted. */
export class JobRunnerStopping extends Error {
  constructor() {
    super("the service is stopping");
  }
}

/** Default backoff: 5 s, doubling, at most 10 minutes. */
export const defaultBackoffMs = (attempt: number) => Math.min(600_000, 5_000 * 2 ** Math.max(0, attempt - 1));
