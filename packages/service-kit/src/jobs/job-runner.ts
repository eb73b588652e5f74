import pg from "pg";
import type { Logger } from "../logger";
import { claimJob, type ClaimedJobRow } from "./job-claims";
import { JobRunnerStopping, type JobDefinition } from "./job-definition";
import { jobRunDuration, jobRunsTotal, registerJobQueues } from "./job-metrics";
import { runClaimedJob, type JobOutcome } from "./job-run";
import type { JobDb, JobSql } from "./job-sql";

export interface JobRunnerOptions<Tx extends JobSql> {
  /** The service's database: its jobs tables, and the connections that hold running jobs' locks. */
  databaseUrl: string;
  db: JobDb<Tx>;
  log: Logger;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each queue's payload type is its own
  definitions: readonly JobDefinition<any, Tx>[];
  /** How often due jobs are looked for without a poke (jobs queued by another instance, backoffs ending). */
  pollMs?: number;
  heartbeatMs?: number;
  /** Ended jobs are kept this long, as history (default 7 days). */
  keepEndedMs?: number;
  /**
   * A running job whose heartbeat is this old while its lock is still held has lost its worker
   * unseen (its host gone): the lock's connection is ended and the job taken over (default 2 minutes).
   */
  stallMs?: number;
}

/** Ended jobs deleted per sweep, and how often one runs. */
const SWEEP_BATCH = 1_000;
const SWEEP_MAX_BATCHES = 100;
const SWEEP_EVERY_MS = 10 * 60_000;
/** How long a stopping runner waits for the jobs it interrupted before it leaves them (see `stop`). */
const ABANDON_AFTER_MS = 10_000;

/** A job this runner is running: its end, and how it is stopped. */
interface ActiveJob {
  row: ClaimedJobRow;
  done: Promise<void>;
  abort: (reason: Error) => void;
  /** Ends the connection holding the job's lock: the job is then another instance's to take over. */
  abandon: () => void;
}

interface QueueState<Tx extends JobSql> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  def: JobDefinition<any, Tx>;
  active: Map<string, ActiveJob>;
  /** The pass claiming now, if any (stop waits for it: a job it claims is then one of the running). */
  filling: Promise<void> | null;
  again: boolean;
  /** When its claims last looked for stalled holders. */
  lastStallLook: number;
}

/**
 * Runs every queue of a service: claims due jobs up to each queue's concurrency (a poke when this
 * instance queued one, a poll for the rest), runs each on a connection of its own that holds the
 * job's lock and beats its heartbeat, and writes how it ended. See docs/background-jobs.md.
 */
export function createJobRunner<Tx extends JobSql>(options: JobRunnerOptions<Tx>) {
  const { log, definitions, pollMs = 1_000 } = options;
  const queues = new Map<string, QueueState<Tx>>(
    definitions.map((def) => [def.queue, { def, active: new Map(), filling: null, again: false, lastStallLook: 0 }]),
  );
  const slots = definitions.reduce((sum, def) => sum + (def.concurrency ?? 1), 0);
  // One connection per running job, and one for the claims of each queue.
  // Keepalives both ways: the server learns within a minute of a worker host gone without a word
  // (its job's lock is dropped, and the job taken over), and the worker of a server gone.
  /** The runner's connections, ended by stop (a start or drain after it opens new ones). */
  let open: { pool: pg.Pool; unregister: () => void } | null = null;
  function poolOf(): pg.Pool {
    if (open) return open.pool;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: slots + definitions.length,
      application_name: "hearth-jobs",
      options: "-c TimeZone=UTC -c tcp_keepalives_idle=15 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=4",
      keepAlive: true,
      keepAliveInitialDelayMillis: 15_000,
    });
    pool.on("error", (err) => log.warn({ err }, "job runner: an idle connection failed"));
    // A connection that fails while a job holds it must not end the process: the job's own listener
    // (job-run.ts) stops the job; this one stays for the moments before and after it.
    pool.on("connect", (client) => client.on("error", () => {}));
    open = { pool, unregister: registerJobQueues(pool, [...queues.keys()]) };
    return pool;
  }
  // Open from the start, so the queues' gauges report before the first claim.
  poolOf();
  let started = false;
  let timer: NodeJS.Timeout | null = null;

  const stallMs = options.stallMs ?? 120_000;
  /**
   * Whether this claim also looks for stalled holders: a quarter of `stallMs` apart at most, not
   * on every poll (it reads pg_locks; a stalled holder is one silent for minutes anyway).
   */
  function stallLookDue(state: QueueState<Tx>): boolean {
    if (Date.now() - state.lastStallLook < stallMs / 4) return false;
    state.lastStallLook = Date.now();
    return true;
  }

  async function claimNext(state: QueueState<Tx>): Promise<{ client: pg.PoolClient; row: ClaimedJobRow } | null> {
    const client = await poolOf().connect();
    try {
      const { queue, perFamilyLimit = 1, onClaim } = state.def;
      const row = await claimJob(client, { queue, perFamilyLimit, onClaim }, { ms: stallMs, look: stallLookDue(state) });
      if (!row) client.release();
      return row ? { client, row } : null;
    } catch (err) {
      client.release(true); // with it any job lock the failed claim took
      throw err;
    }
  }

  function launch(state: QueueState<Tx>, client: pg.PoolClient, row: ClaimedJobRow): Promise<void> {
    const controller = new AbortController();
    const startedAt = process.hrtime.bigint();
    let released = false;
    const release = (destroy: boolean) => {
      if (released) return;
      released = true;
      client.release(destroy);
    };
    const done = runClaimedJob({ ...options, def: state.def, client, release, row, signal: controller.signal, abort: (reason) => controller.abort(reason) })
      .then((outcome) => record(state, outcome, startedAt))
      .catch((err: unknown) => log.error({ err, jobId: row.id, queue: row.queue }, "job runner: a job's end could not be written"))
      .finally(() => {
        // An abandoned job is no longer among them (and its id may be running again, taken over after a restart).
        if (state.active.get(row.id) === job) state.active.delete(row.id);
        if (!started) return;
        void fill(state);
        for (const queue of state.def.pokes ?? []) {
          const poked = queues.get(queue);
          if (poked) void fill(poked);
        }
      });
    const job: ActiveJob = { row, done, abort: (reason) => controller.abort(reason), abandon: () => release(true) };
    state.active.set(row.id, job);
    return done;
  }

  function record(state: QueueState<Tx>, outcome: JobOutcome, startedAt: bigint): void {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    jobRunsTotal.inc({ queue: state.def.queue, outcome });
    jobRunDuration.observe({ queue: state.def.queue, outcome }, seconds);
  }

  /** Claims and starts due jobs until the queue's slots are full or nothing is due; one pass at a time. */
  function fill(state: QueueState<Tx>): Promise<void> {
    if (state.filling) {
      state.again = true;
      return state.filling;
    }
    // Cleared in a `finally` of its own, which runs after this assignment even when the pass ends
    // at once (its slots full): cleared inside the pass, it was set again here, and stuck for good.
    const pass = claimWhileRoom(state).finally(() => {
      state.filling = null;
      // A poke that came after the pass's last look at `again`, before this: not lost until the poll.
      if (state.again && started) void fill(state);
    });
    state.filling = pass;
    return pass;
  }

  async function claimWhileRoom(state: QueueState<Tx>): Promise<void> {
    try {
      do {
        state.again = false;
        while (started && state.active.size < (state.def.concurrency ?? 1)) {
          const claimed = await claimNext(state);
          if (!claimed) break;
          void launch(state, claimed.client, claimed.row);
          // Nothing else was due: no claim again now (it would only find that out again, beside
          // the job just started). A job queued meanwhile pokes (`again`), or waits for the poll.
          if (!claimed.row.more_due) break;
        }
      } while (started && state.again);
    } catch (err) {
      log.error({ err, queue: state.def.queue }, "job runner: claiming failed; trying again at the next poll");
    }
  }

  let lastSweep = 0;
  /** The sweep under way, if any (stop waits for it, so no query reopens the connections after). */
  let sweeping: Promise<void> | null = null;
  /**
   * Every ten minutes: ended jobs past their keeping go, a batch at a time until none is left
   * (history, not a table that only grows), and each queue queues the jobs its records should
   * have and do not (`reconcile`).
   */
  async function sweep(): Promise<void> {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = Date.now();
    try {
      for (let batch = 0; started && batch < SWEEP_MAX_BATCHES; batch++) {
        const swept = await poolOf().query(
          `DELETE FROM jobs WHERE id = ANY(ARRAY(
             SELECT id FROM jobs WHERE status IN ('succeeded', 'failed', 'cancelled') AND finished_at < now() - $2 * interval '1 millisecond'
                AND queue = ANY($1) LIMIT ${SWEEP_BATCH}))`,
          [[...queues.keys()], options.keepEndedMs ?? 7 * 86_400_000],
        );
        if ((swept.rowCount ?? 0) < SWEEP_BATCH) break;
      }
      for (const state of queues.values()) {
        const queued = (await state.def.reconcile?.()) ?? 0;
        if (queued > 0) {
          log.info({ queue: state.def.queue, queued }, "job runner: the queue's reconcile queued jobs");
          void fill(state);
        }
      }
    } catch (err) {
      log.warn({ err }, "job runner: sweeping ended jobs or reconciling failed");
    }
  }

  const fillAll = () => {
    for (const state of queues.values()) void fill(state);
    sweeping ??= sweep().finally(() => (sweeping = null));
  };

  return {
    start(): void {
      if (started) return;
      started = true;
      lastSweep = 0; // a start (again) reconciles at once
      timer = setInterval(fillAll, pollMs);
      timer.unref();
      fillAll();
    },
    /** Work was queued on `queue` by this instance: look for it now. */
    poke(queue: string): void {
      const state = queues.get(queue);
      if (state && started) void fill(state);
    },
    /**
     * Runs `queue`'s due jobs here until none is left, one after the other (tests, and callers
     * that need the queue empty now), after the ones running.
     */
    async drain(queue: string): Promise<void> {
      const state = queues.get(queue);
      if (!state) throw new Error(`no job queue ${queue}`);
      await Promise.all([...state.active.values()].map((job) => job.done));
      for (let claimed = await claimNext(state); claimed; claimed = await claimNext(state)) await launch(state, claimed.client, claimed.row);
    },
    /**
     * Stops claiming and waits for the jobs running; `interrupt` aborts them first, `graceMs`
     * after that long (their jobs wait for another instance, the attempt not counted, unless the
     * job ends itself on its signal). An interrupted job still running `abandonMs` later (its work
     * does not heed its signal) is not waited for: its lock's connection is ended, and the job is
     * taken over as a dead worker's. The stop is so bounded whatever the jobs do.
     */
    async stop({
      interrupt = false,
      graceMs,
      abandonMs = ABANDON_AFTER_MS,
    }: { interrupt?: boolean; graceMs?: number; abandonMs?: number } = {}): Promise<void> {
      started = false;
      if (timer) clearInterval(timer);
      // A claim under way finishes first: the job it takes is then one of those waited for.
      await Promise.all([...queues.values()].map((state) => state.filling));
      const running = [...queues.values()].flatMap((state) => [...state.active.values()]);
      if (!interrupt && graceMs !== undefined && running.length > 0) {
        let timer: NodeJS.Timeout | undefined;
        const graceOver = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
        interrupt = await Promise.race([Promise.all(running.map((job) => job.done)).then(() => false), graceOver]);
        clearTimeout(timer);
      }
      if (interrupt) {
        for (const job of running) job.abort(new JobRunnerStopping());
        for (const job of await stillRunningAfter(running, abandonMs)) {
          log.error(
            { jobId: job.row.id, queue: job.row.queue, abandon_ms: abandonMs },
            "job runner: a job did not stop when interrupted; left to be taken over",
          );
          job.abandon();
          const state = queues.get(job.row.queue);
          if (state?.active.get(job.row.id) === job) state.active.delete(job.row.id);
        }
      } else await Promise.all(running.map((job) => job.done));
      await sweeping;
      // A service stopped and started again (an outage in a test) claims on new connections.
      const ending = open;
      open = null;
      if (ending) {
        ending.unregister();
        await ending.pool.end();
      }
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;

/** The jobs of `jobs` that have not ended `ms` from now (none, as soon as all have). */
async function stillRunningAfter(jobs: readonly ActiveJob[], ms: number): Promise<ActiveJob[]> {
  const ended = new Set<ActiveJob>();
  const all = Promise.all(jobs.map((job) => job.done.then(() => void ended.add(job))));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
  return jobs.filter((job) => !ended.has(job));
}
