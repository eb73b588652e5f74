import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cancelJobs, enqueueJob, JobFailure, type JobDefinition, type JobSql } from "../../src/jobs";
import { metricsText } from "../../src/metrics";
import { cleanup } from "../migrations/helpers";
import { EmptyPayload, FAMILY_A, FAMILY_B, FAMILY_C, jobsDatabase, recordRun, runnerOf, until, type JobsDatabase } from "./jobs-db";

let database: JobsDatabase;

beforeAll(async () => {
  database = await jobsDatabase();
});
afterAll(async () => {
  await database?.pool.end();
  await cleanup();
});
beforeEach(async () => {
  await database.pool.query("TRUNCATE jobs, job_family_turns, work_done");
});

const queued = (queue: string, familyId: string, extra: { dedupeKey?: string; subjectId?: string } = {}) =>
  database.db.$transaction((tx) => enqueueJob(tx, { queue, familyId, ...extra }));

const jobRow = async (id: string) =>
  (
    await database.pool.query<{ status: string; attempts: number; last_error: string | null }>(
      "SELECT status::text, attempts, last_error FROM jobs WHERE id = $1",
      [id],
    )
  ).rows[0];

/** A job that records its run and completes in one transaction. */
const recording = (queue: string, extra: Partial<JobDefinition<Record<string, unknown>, JobSql>> = {}): JobDefinition<Record<string, unknown>, JobSql> => ({
  queue,
  payload: EmptyPayload,
  run: (job) =>
    database.db.$transaction(async (tx) => {
      await recordRun(tx, job);
      await job.complete(tx);
    }),
  ...extra,
});

/** Waits until the job is no longer this worker's to run (cancelled, lost, stopped), then throws why. */
const untilAborted = (job: { signal: AbortSignal }) =>
  new Promise<never>((_, reject) => job.signal.addEventListener("abort", () => reject(job.signal.reason as Error)));

/** A queue whose job opens `started`, then works until it is aborted. */
const blockingUntilAborted = (queue: string, started: { open: () => void }): JobDefinition<Record<string, unknown>, JobSql> => ({
  queue,
  payload: EmptyPayload,
  run: async (job) => {
    started.open();
    await untilAborted(job);
  },
});

/** A gate a job waits at until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("queueing", () => {
  it("queues a job with the caller's transaction only, and one waiting job per dedupe key", async () => {
    await expect(
      database.db.$transaction(async (tx) => {
        await enqueueJob(tx, { queue: "q", familyId: FAMILY_A });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect((await database.pool.query("SELECT count(*)::int AS n FROM jobs")).rows[0].n).toBe(0);

    const first = await queued("q", FAMILY_A, { dedupeKey: "k" });
    const again = await queued("q", FAMILY_A, { dedupeKey: "k" });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    // Running, it is no longer waiting: a change made meanwhile gets a run of its own.
    await database.pool.query("UPDATE jobs SET status = 'running' WHERE id = $1", [first.id]);
    const next = await queued("q", FAMILY_A, { dedupeKey: "k" });
    expect(next.created).toBe(true);
    expect(next.id).not.toBe(first.id);
  });

  it("answers parallel requests with one dedupe key with one job", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => queued("q", FAMILY_A, { dedupeKey: "same" })));
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
  });

  it("postpones a waiting job with its key to the later time (a debounce); a running one gets a job after it", async () => {
    const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute));
    const runAfterOf = async (id: string) =>
      (await database.pool.query<{ run_after: Date }>("SELECT run_after FROM jobs WHERE id = $1", [id])).rows[0]!.run_after;
    const postponed = (minute: number) =>
      database.db.$transaction((tx) => enqueueJob(tx, { queue: "q", familyId: FAMILY_A, dedupeKey: "scan", runAfter: at(minute), postpone: true }));
    const first = await postponed(10);
    expect(first.created).toBe(true);
    expect(await postponed(20)).toEqual({ id: first.id, created: false });
    expect(await runAfterOf(first.id)).toEqual(at(20));
    expect(await postponed(15)).toEqual({ id: first.id, created: false });
    expect(await runAfterOf(first.id)).toEqual(at(20));
    const burst = await Promise.all([25, 30, 28].map((minute) => postponed(minute)));
    expect(new Set(burst.map((answer) => answer.id))).toEqual(new Set([first.id]));
    expect(await runAfterOf(first.id)).toEqual(at(30));
    await database.pool.query("UPDATE jobs SET status = 'running' WHERE id = $1", [first.id]);
    const next = await postponed(40);
    expect(next.created).toBe(true);
    expect(next.id).not.toBe(first.id);
  });

  it("makes a job queued for now due at once: its time is never rounded up past the clock", async () => {
    // run_after is timestamptz(3): now() rounded to the millisecond can land up to 0.5 ms ahead,
    // and a runner poked right after the enqueue would then find nothing and sleep its poll out.
    for (let i = 0; i < 20; i++) {
      const due = await database.db.$transaction(async (tx) => {
        const { id } = await enqueueJob(tx, { queue: "q", familyId: FAMILY_A });
        const [row] = await tx.$queryRaw<{ due: boolean }[]>`SELECT run_after <= now() AS due FROM jobs WHERE id = ${id}::uuid`;
        return row?.due;
      });
      expect(due).toBe(true);
    }
  });
});

describe("running", () => {
  it("runs each job once though two runners claim at once", async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => queued("once", [FAMILY_A, FAMILY_B, FAMILY_C][i % 3]!)));
    const runners = [0, 1].map(() => runnerOf(database, [recording("once", { concurrency: 3, perFamilyLimit: 3 })]));
    runners.forEach((runner) => runner.start());
    try {
      await until(async () => (await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n >= ids.length, 20_000, "every job run");
      // Every job's lock is given back while the runners live: none stays on their pooled
      // connections (a lock left there makes its job look alive, and its family's claims fail, for good).
      const locksHeld = async () =>
        (
          await database.pool.query(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND a.application_name = 'hearth-jobs' AND a.datname = current_database()`,
          )
        ).rows[0].n === 0;
      await until(locksHeld, 5_000, "every job's lock given back");
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
    const runs = await database.pool.query<{ job_id: string; n: number }>("SELECT job_id, count(*)::int AS n FROM work_done GROUP BY job_id");
    expect(runs.rows).toHaveLength(ids.length);
    expect(runs.rows.every((row) => row.n === 1)).toBe(true);
    const statuses = await database.pool.query("SELECT DISTINCT status::text FROM jobs");
    expect(statuses.rows).toEqual([{ status: "succeeded" }]);
  });

  it("claims again once a slot frees, after being asked while every slot was busy", async () => {
    const first = await queued("busy", FAMILY_A);
    const started = gate();
    const release = gate();
    const runner = runnerOf(database, [
      recording("busy", {
        run: async (job) => {
          if (job.id === first.id) {
            started.open();
            await release.opened;
          }
          await database.db.$transaction(async (tx) => {
            await recordRun(tx, job);
            await job.complete(tx);
          });
        },
      }),
    ]);
    runner.start();
    try {
      await started.opened;
      const second = await queued("busy", FAMILY_B);
      runner.poke("busy"); // its one slot busy: nothing to claim now
      release.open();
      await until(async () => (await jobRow(second.id))?.status === "succeeded", 5_000, "the second job run once the first ended");
    } finally {
      await runner.stop();
    }
  });

  it("gives families turns: the one with the fewest running, then the one served longest ago", async () => {
    for (let i = 0; i < 30; i++) await queued("fair", FAMILY_A);
    await queued("fair", FAMILY_B);
    await queued("fair", FAMILY_C);
    const runner = runnerOf(database, [recording("fair")]);
    await runner.drain("fair");
    await runner.stop();
    const order = await database.pool.query<{ family_id: string }>("SELECT family_id FROM work_done ORDER BY at");
    const families = order.rows.map((row) => row.family_id);
    expect(families).toHaveLength(32);
    // B and C, queued after A's thirty, run second and third.
    expect(families.indexOf(FAMILY_B)).toBeLessThanOrEqual(2);
    expect(families.indexOf(FAMILY_C)).toBeLessThanOrEqual(2);
  });

  it("keeps each family under its running limit over every runner; the rest wait", async () => {
    for (let i = 0; i < 6; i++) await queued("limited", FAMILY_A);
    for (let i = 0; i < 2; i++) await queued("limited", FAMILY_B);
    let running = new Map<string, number>();
    let worst = 0;
    const definition = recording("limited", {
      concurrency: 3,
      perFamilyLimit: 1,
      run: async (job) => {
        running.set(job.familyId, (running.get(job.familyId) ?? 0) + 1);
        worst = Math.max(worst, ...running.values());
        await new Promise((resolve) => setTimeout(resolve, 60));
        running.set(job.familyId, (running.get(job.familyId) ?? 1) - 1);
        await database.db.$transaction(async (tx) => {
          await recordRun(tx, job);
          await job.complete(tx);
        });
      },
    });
    const runners = [0, 1].map(() => runnerOf(database, [definition]));
    runners.forEach((runner) => runner.start());
    try {
      await until(async () => (await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n === 8, 20_000, "all eight run");
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      running = new Map();
    }
    expect(worst).toBe(1);
  });
});

describe("a worker that dies", () => {
  it("has its job taken over at once once its lock is free, never while a live worker holds it", async () => {
    const { id } = await queued("takeover", FAMILY_A);
    const held = gate();
    // Its first run works until the job is no longer its own; a later one records itself.
    const blockingFirst = recording("takeover", {
      run: async (job) => {
        if (job.attempt === 1) {
          held.open();
          await untilAborted(job);
        }
        await database.db.$transaction(async (tx) => {
          await recordRun(tx, job);
          await job.complete(tx);
        });
      },
    });
    const first = runnerOf(database, [blockingFirst]);
    const second = runnerOf(database, [blockingFirst], 60_000);
    first.start();
    try {
      await held.opened;
      // A live worker's job is no one else's, however long it runs.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await second.drain("takeover");
      expect(await jobRow(id)).toMatchObject({ status: "running", attempts: 1 });

      // The first worker's connection dies (as with its process): the job is taken over at the
      // next claim, by whichever runner claims first (the first one too: its job there is lost).
      second.start();
      await database.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND classid = ((hashtextextended('hearth.job:' || $1, 0) >> 32) & 4294967295)::oid`,
        [id],
      );
      const diedAt = Date.now();
      await until(async () => (await jobRow(id))?.status === "succeeded", 10_000, "the job taken over and run");
      expect(Date.now() - diedAt, "taken over at once, not after a lease").toBeLessThan(2_000);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
    expect(await jobRow(id)).toMatchObject({ status: "succeeded", attempts: 2 });
    const runs = await database.pool.query("SELECT attempt FROM work_done WHERE job_id = $1", [id]);
    expect(runs.rows).toEqual([{ attempt: 2 }]);
  });

  it("ends the connection of a holder whose heartbeat stopped long ago (its host gone unseen), then takes its job over", async () => {
    const { id } = await queued("stalled", FAMILY_A);
    await database.pool.query(
      "UPDATE jobs SET status = 'running', attempts = 1, lease_token = gen_random_uuid(), heartbeat_at = now() - interval '1 hour' WHERE id = $1",
      [id],
    );
    // Its lock is held by a connection that never beats again (as a frozen host's would stay open).
    const frozen = await database.pool.connect();
    frozen.on("error", () => {}); // the runner ends it
    await frozen.query("SELECT pg_advisory_lock(hashtextextended('hearth.job:' || $1, 0))", [id]);
    const runner = runnerOf(database, [recording("stalled")], 100, { stallMs: 60_000 });
    try {
      await until(
        async () => {
          await runner.drain("stalled");
          return (await jobRow(id))?.status === "succeeded";
        },
        10_000,
        "the stalled job taken over",
      );
    } finally {
      frozen.release(true);
      await runner.stop();
    }
    expect(await jobRow(id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("does not run again a job whose cancel was asked for while its worker was gone: it ends cancelled, its record told", async () => {
    const { id } = await queued("cancelled-dead", FAMILY_A, { subjectId: FAMILY_B });
    await database.pool.query("UPDATE jobs SET status = 'running', attempts = 1, lease_token = gen_random_uuid(), cancel_requested_at = now() WHERE id = $1", [
      id,
    ]);
    const told: string[] = [];
    const runner = runnerOf(database, [recording("cancelled-dead", { failed: async (_tx, job, reason) => void told.push(`${job.subjectId}: ${reason}`) })]);
    await runner.drain("cancelled-dead");
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: "cancelled" });
    expect(told).toEqual([`${FAMILY_B}: The job was cancelled.`]);
    expect((await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n).toBe(0);
  });

  it("ends a job failed, with the queue's failure hook, once it was taken over more than its attempts allow", async () => {
    const { id } = await queued("poison", FAMILY_A, { subjectId: FAMILY_C });
    await database.pool.query("UPDATE jobs SET status = 'running', attempts = 3, lease_token = gen_random_uuid() WHERE id = $1", [id]);
    const failures: string[] = [];
    const runner = runnerOf(database, [
      recording("poison", {
        failed: async (_tx, job, reason) => {
          failures.push(`${job.subjectId}: ${reason}`);
        },
      }),
    ]);
    await runner.drain("poison");
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 4 });
    expect(failures).toEqual([`${FAMILY_C}: The job was interrupted 3 times and was not finished.`]);
    expect((await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n).toBe(0);
  });
});

describe("failures, retries, cancels and stops", () => {
  it("retries a failing job with backoff, keeps the error, and ends it failed after its attempts", async () => {
    const { id } = await queued("flaky", FAMILY_A);
    const reasons: string[] = [];
    let runs = 0;
    const runner = runnerOf(database, [
      {
        queue: "flaky",
        payload: EmptyPayload,
        maxAttempts: 2,
        backoffMs: () => 0,
        run: async () => {
          runs++;
          throw new Error(`broken ${runs}`);
        },
        failed: async (_tx, _job, reason) => {
          reasons.push(reason);
        },
      },
    ]);
    // (No backoff here: the retry is due at once, and the drain runs it too.)
    await runner.drain("flaky");
    await runner.stop();
    expect(runs).toBe(2);
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 2, last_error: "broken 2" });
    expect(reasons).toEqual(["The job could not be finished."]);
  });

  it("ends a failing job as superseded, not queued again, when a newer job with its key waits already", async () => {
    const { id } = await queued("superseded", FAMILY_A, { dedupeKey: "k" });
    const started = gate();
    const proceed = gate();
    const runner = runnerOf(database, [
      {
        queue: "superseded",
        payload: EmptyPayload,
        backoffMs: () => 0,
        run: async (job) => {
          if (job.id !== id) return;
          started.open();
          await proceed.opened;
          throw new Error("broken");
        },
      },
    ]);
    runner.start();
    await started.opened;
    const newer = await queued("superseded", FAMILY_A, { dedupeKey: "k" });
    expect(newer.created).toBe(true);
    proceed.open();
    await until(async () => (await jobRow(newer.id))?.status === "succeeded", 5_000, "the newer job run");
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: "cancelled", last_error: "superseded by a newer job" });
  });

  it("waits out the backoff before the next attempt", async () => {
    const { id } = await queued("slow-retry", FAMILY_A);
    const runner = runnerOf(database, [{ ...recording("slow-retry"), backoffMs: () => 60_000, run: async () => Promise.reject(new Error("down")) }]);
    await runner.drain("slow-retry");
    await runner.drain("slow-retry");
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 1, last_error: "down" });
  });

  it("ends a job that throws a JobFailure failed at once, with its reason for people", async () => {
    const { id } = await queued("refused", FAMILY_A);
    const reasons: string[] = [];
    const runner = runnerOf(database, [
      {
        queue: "refused",
        payload: EmptyPayload,
        run: async () => {
          throw new JobFailure("The file names an account that does not exist.");
        },
        failed: async (_tx, _job, reason) => {
          reasons.push(reason);
        },
      },
    ]);
    await runner.drain("refused");
    await runner.stop();
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(reasons).toEqual(["The file names an account that does not exist."]);
  });

  it("cancels a waiting job at once and a running one through its signal", async () => {
    const subject = FAMILY_B;
    const waiting = await queued("cancel-me", FAMILY_A, { subjectId: subject });
    expect(await database.db.$transaction((tx) => cancelJobs(tx, "cancel-me", subject))).toBe(1);
    expect(await jobRow(waiting.id)).toMatchObject({ status: "cancelled", attempts: 0 });

    const running = await queued("cancel-me", FAMILY_A, { subjectId: subject });
    const started = gate();
    const runner = runnerOf(database, [blockingUntilAborted("cancel-me", started)]);
    runner.start();
    await started.opened;
    await database.db.$transaction((tx) => cancelJobs(tx, "cancel-me", subject));
    await until(async () => (await jobRow(running.id))?.status === "cancelled", 5_000, "the running job cancelled");
    await runner.stop();
  });

  it("gives a job interrupted by a stopping service back to the queue, its attempt not counted", async () => {
    const { id } = await queued("stopping", FAMILY_A);
    const started = gate();
    const runner = runnerOf(database, [blockingUntilAborted("stopping", started)]);
    runner.start();
    await started.opened;
    await runner.stop({ interrupt: true });
    expect(await jobRow(id)).toMatchObject({ status: "queued", attempts: 0 });
    const lock = await database.pool.query(
      "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    );
    expect(lock.rows[0].n).toBe(0);
  });

  it("stopping with a grace lets a job that ends in time finish, then interrupts the one still running", async () => {
    const quick = await queued("graceful-quick", FAMILY_A);
    const slow = await queued("graceful-slow", FAMILY_B);
    const quickStarted = gate();
    const slowStarted = gate();
    const finish = gate();
    const runner = runnerOf(database, [
      {
        queue: "graceful-quick",
        payload: EmptyPayload,
        run: async (job) => {
          quickStarted.open();
          await finish.opened;
          await database.db.$transaction(async (tx) => {
            await recordRun(tx, job);
            await job.complete(tx);
          });
        },
      },
      blockingUntilAborted("graceful-slow", slowStarted),
    ]);
    runner.start();
    await Promise.all([quickStarted.opened, slowStarted.opened]);
    const began = Date.now();
    const stopping = runner.stop({ graceMs: 300 });
    setTimeout(() => finish.open(), 50);
    await stopping;
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(await jobRow(quick.id)).toMatchObject({ status: "succeeded" });
    expect(await jobRow(slow.id)).toMatchObject({ status: "queued", attempts: 0 });
  });

  it("stopping does not wait without end for a job that ignores its interrupt: its connection is ended, and the job taken over", async () => {
    // A stopping chat waited for good for an answer whose provider had missed its abort (CI: the
    // system tests' afterAll timed out after 120 s).
    const { id } = await queued("deaf", FAMILY_A);
    const started = gate();
    const deaf = recording("deaf", {
      run: async (job) => {
        if (job.attempt === 1) {
          started.open();
          await new Promise<never>(() => {}); // heeds no signal, ever
        }
        await database.db.$transaction(async (tx) => {
          await recordRun(tx, job);
          await job.complete(tx);
        });
      },
    });
    const runner = runnerOf(database, [deaf]);
    runner.start();
    await started.opened;
    const began = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([
      runner.stop({ interrupt: true, abandonMs: 300 }).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
    ]);
    clearTimeout(timer);
    expect(stopped, "the stop ended").toBe(true);
    expect(Date.now() - began).toBeLessThan(5_000);
    // Its lock went with its connection: the next claim takes the job over as a dead worker's.
    const next = runnerOf(database, [deaf]);
    try {
      await until(
        async () => {
          await next.drain("deaf");
          return (await jobRow(id))?.status === "succeeded";
        },
        10_000,
        "the abandoned job taken over",
      );
    } finally {
      await next.stop();
    }
    expect(await jobRow(id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("rolls back the writes of a worker whose job was taken over meanwhile", async () => {
    const { id } = await queued("fenced", FAMILY_A);
    const started = gate();
    const proceed = gate();
    const runner = runnerOf(
      database,
      [
        {
          queue: "fenced",
          payload: EmptyPayload,
          run: async (job) => {
            started.open();
            await proceed.opened;
            await database.db.$transaction(async (tx) => {
              await recordRun(tx, job);
              await job.complete(tx);
            });
          },
        },
      ],
      60_000,
    );
    runner.start();
    await started.opened;
    // Another worker's claim (as after this one's connection was lost): a new token.
    await database.pool.query("UPDATE jobs SET lease_token = gen_random_uuid() WHERE id = $1", [id]);
    proceed.open();
    await runner.stop();
    expect((await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n).toBe(0);
    expect(await jobRow(id)).toMatchObject({ status: "running" });
  });
});

describe("a queue's first write in the claim (onClaim)", () => {
  it("runs the queue's statement in the claim's transaction, on the job claimed, and hands its row to the run; not on a takeover", async () => {
    const { id: fresh } = await queued("on-claim", FAMILY_A);
    const { id: orphan } = await queued("on-claim", FAMILY_B);
    // The second job's worker is gone: running, its lock free (as after its process died).
    await database.pool.query("UPDATE jobs SET status = 'running', attempts = 1, lease_token = gen_random_uuid() WHERE id = $1", [orphan]);
    const seen = new Map<string, unknown>();
    const runner = runnerOf(database, [
      {
        queue: "on-claim",
        payload: EmptyPayload,
        onClaim: `INSERT INTO work_done (job_id, family_id, attempt) SELECT id::uuid, family_id::uuid, attempts FROM claimed
                   RETURNING job_id::text AS job_id, attempt`,
        run: async (job) => {
          seen.set(job.id, job.claimed);
        },
      },
    ]);
    runner.start();
    try {
      await until(async () => (await jobRow(fresh))?.status === "succeeded" && (await jobRow(orphan))?.status === "succeeded", 10_000, "both jobs run");
    } finally {
      await runner.stop();
    }
    expect(seen.get(fresh)).toEqual({ job_id: fresh, attempt: 1 });
    expect(seen.get(orphan)).toBeNull();
    const done = await database.pool.query<{ job_id: string }>("SELECT job_id::text FROM work_done");
    expect(done.rows).toEqual([{ job_id: fresh }]);
  });
});

describe("a job's end in a statement of its own (completeWith)", () => {
  /** What Prisma.sql is to a service: a fragment to put in a statement, its values numbered there. */
  const fragment = (strings: TemplateStringsArray, ...values: unknown[]) => ({ strings: [...strings], values });
  /** The job's end and its record of the run, in one statement: whether the end returned its row. */
  const endAndRecord = async (end: ReturnType<typeof fragment>, job: { familyId: string; attempt: number }) => {
    const endSql = end.strings.reduce((sql, part, i) => `${sql}${i > 0 ? `$${i}` : ""}${part}`, "");
    const n = end.values.length;
    const written = await database.pool.query(
      `WITH ended AS (${endSql}) INSERT INTO work_done (job_id, family_id, attempt) SELECT id, $${n + 1}::uuid, $${n + 2} FROM ended`,
      [...end.values, job.familyId, job.attempt],
    );
    return written.rowCount === 1;
  };

  it("ends the job succeeded with the job's write; once the job is no longer this worker's, neither is written", async () => {
    const { id: kept } = await queued("one-statement", FAMILY_A);
    const { id: lost } = await queued("one-statement", FAMILY_B);
    const runner = runnerOf(database, [
      {
        queue: "one-statement",
        payload: EmptyPayload,
        run: async (job) => {
          // Another worker's claim of the second job's first run (as after this one's connection
          // was lost): a new token. Its lock then goes with this run, and the job is taken over.
          if (job.id === lost && job.attempt === 1) await database.pool.query("UPDATE jobs SET lease_token = gen_random_uuid() WHERE id = $1", [lost]);
          await job.completeWith(fragment, (end) => endAndRecord(end, job));
        },
      },
    ]);
    runner.start();
    try {
      await until(async () => (await jobRow(kept))?.status === "succeeded" && (await jobRow(lost))?.status === "succeeded", 10_000, "both jobs' ends");
    } finally {
      await runner.stop();
    }
    const done = await database.pool.query<{ job_id: string; attempt: number }>("SELECT job_id::text, attempt FROM work_done ORDER BY attempt");
    expect(done.rows).toEqual([
      { job_id: kept, attempt: 1 },
      { job_id: lost, attempt: 2 },
    ]);
  });
});

describe("history", () => {
  it("keeps ended jobs a week, then sweeps them; waiting and running ones stay", async () => {
    const old = await queued("kept", FAMILY_A);
    const recent = await queued("kept", FAMILY_A);
    const waiting = await queued("kept", FAMILY_B);
    await database.pool.query("UPDATE jobs SET status = 'succeeded', finished_at = now() - interval '8 days' WHERE id = $1", [old.id]);
    await database.pool.query("UPDATE jobs SET status = 'failed', finished_at = now() - interval '1 day' WHERE id = $1", [recent.id]);
    await database.pool.query("UPDATE jobs SET run_after = now() + interval '1 day' WHERE id = $1", [waiting.id]);
    const runner = runnerOf(database, [recording("kept")]);
    runner.start();
    try {
      await until(async () => (await jobRow(old.id)) === undefined, 5_000, "the week-old job swept");
    } finally {
      await runner.stop();
    }
    expect(await jobRow(recent.id)).toMatchObject({ status: "failed" });
    expect(await jobRow(waiting.id)).toMatchObject({ status: "queued" });
  });
});

describe("metrics", () => {
  it("reports each queue's due and running jobs and how its runs ended", async () => {
    await queued("metered", FAMILY_A);
    await queued("metered", FAMILY_B);
    const later = await queued("metered", FAMILY_C);
    await database.pool.query("UPDATE jobs SET run_after = now() + interval '1 hour' WHERE id = $1", [later.id]);
    const runner = runnerOf(database, [recording("metered")]);
    try {
      const before = (await metricsText()).body;
      // Not yet due: not counted.
      expect(before).toMatch(/background_job_queue_depth\{[^}]*queue="metered",status="queued"[^}]*\} 2\b/);
      expect(before).toMatch(/background_job_queue_depth\{[^}]*queue="metered",status="running"[^}]*\} 0\b/);
      await runner.drain("metered");
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the shared read's second
      const after = (await metricsText()).body;
      expect(after).toMatch(/background_job_queue_depth\{[^}]*queue="metered",status="queued"[^}]*\} 0\b/);
      expect(after).toMatch(/background_job_runs_total\{[^}]*queue="metered",outcome="succeeded"[^}]*\} 2\b/);
    } finally {
      await runner.stop();
    }
  });
});

describe("a runner stopped and started again", () => {
  it("claims on new connections and reconciles again, as a service restarted in place does", async () => {
    let asked = 0;
    const runner = runnerOf(database, [{ ...recording("restarted"), reconcile: async () => (asked++, 0) }]);
    const done = async () => (await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n as number;
    runner.start();
    try {
      await queued("restarted", FAMILY_A);
      await until(async () => (await done()) === 1, 5_000, "the first job's run");
      await runner.stop();
      runner.start();
      await queued("restarted", FAMILY_B);
      await until(async () => (await done()) === 2, 5_000, "the job queued after the restart");
      expect(asked).toBe(2);
    } finally {
      await runner.stop();
    }
  });
});

describe("reconcile", () => {
  it("lets each queue queue the jobs its records miss, at start", async () => {
    let asked = 0;
    const runner = runnerOf(database, [
      {
        ...recording("reconciled"),
        reconcile: async () => {
          asked++;
          await enqueueJob(database.db, { queue: "reconciled", familyId: FAMILY_A, dedupeKey: "orphan" });
          return 1;
        },
      },
    ]);
    runner.start();
    try {
      await until(async () => (await database.pool.query("SELECT count(*)::int AS n FROM work_done")).rows[0].n === 1, 5_000, "the orphan's job run");
    } finally {
      await runner.stop();
    }
    expect(asked).toBe(1);
  });

  it("sweeps ended jobs past their keeping however many there are, a batch at a time", async () => {
    await database.pool.query(
      `INSERT INTO jobs (queue, family_id, status, finished_at) SELECT 'swept', $1, 'succeeded', now() - interval '8 days' FROM generate_series(1, 2500)`,
      [FAMILY_A],
    );
    const runner = runnerOf(database, [recording("swept")]);
    runner.start();
    try {
      await until(async () => (await database.pool.query("SELECT count(*)::int AS n FROM jobs WHERE queue = 'swept'")).rows[0].n === 0, 10_000, "all swept");
    } finally {
      await runner.stop();
    }
  });
});
