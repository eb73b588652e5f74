// Balance syncs on the job runner: a sync whose worker died is taken over at once and run again
// from its first day; a worker that lost its job writes nothing; a long run keeps its job; and
// families take turns, so one family's hundreds of syncs never hold up another's one. These
// carry over, case by case, the lease tests of the sync worker the runner replaced
// (sync-leases.test.ts): where a lapsed lease made the run "stale" and queued a new one, the
// job is now taken over and the same run finishes.
import { randomUUID } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseUrlOf } from "@hearth/service-kit";
import { JobLost, createJobRunner, type JobRunner } from "@hearth/service-kit/jobs";
import { createAccountRepository } from "../src/accounts/account-repository";
import { materializeBalances } from "../src/balances/balance-materializer";
import { balanceSyncJob } from "../src/syncs/balance-sync-job";
import { RECURRING_SCAN_QUEUE, requestRecurringScan } from "../src/recurring/recurring-scan-queries";
import { BALANCE_SYNC_QUEUE, createSyncQueueQueries } from "../src/syncs/sync-queue-queries";
import { createTransferMatchQueries } from "../src/transfers/transfer-match-queries";
import { createTransferMatcher } from "../src/transfers/transfer-matcher";
import { endJobConnection, eventually, financeAs, newActor, settled, startFinance, storedBalances, type RunningFinance } from "./support";

let finance: RunningFinance;
const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });

beforeAll(async () => {
  // Each case runs the sync queue with runners of its own (an instance that dies, one that lives):
  // the service's runner rests, or it would take the syncs first.
  finance = await startFinance({ jobs: { pollMs: 3_600_000 } });
  await finance.parts.jobs.stop();
});
afterAll(async () => finance?.stop());

/** What a case leaves to undo however it ended: gates to open, then runners to stop (or the suite would wait on them). */
const leftovers: (() => unknown)[] = [];
afterEach(async () => {
  for (const undo of leftovers.splice(0)) await undo();
});

type Materialize = (accountId: string, windowStart: string | null) => Promise<{ to: string | null }>;
const realMaterialize: Materialize = (accountId, windowStart) => materializeBalances(finance.db, accountId, windowStart);

/** An instance's runner of balance syncs on the test's database. */
function syncRunner(materialize: Materialize = realMaterialize, options: { heartbeatMs?: number; concurrency?: number } = {}): JobRunner {
  const { concurrency, ...tuning } = options;
  const job = balanceSyncJob({
    queries: createSyncQueueQueries(finance.db),
    accounts: createAccountRepository(finance.db),
    materialize,
    matcher: createTransferMatcher(createTransferMatchQueries(finance.db)),
    log: silent,
    afterRun: async (familyId) => void (await requestRecurringScan(finance.db, familyId, 60_000)),
  });
  return createJobRunner({
    databaseUrl: databaseUrlOf(finance.db),
    db: finance.db,
    log: silent,
    pollMs: 50,
    ...tuning,
    definitions: [{ ...job, ...(concurrency !== undefined && { concurrency }) }],
  });
}

/** Runs `work` with a live instance running the sync queue. */
async function withLiveRunner<T>(work: (runner: JobRunner) => Promise<T>): Promise<T> {
  const runner = syncRunner();
  runner.start();
  try {
    return await work(runner);
  } finally {
    await runner.stop();
  }
}

/** A materialize that waits at a gate the test opens, then fails (a worker that resumes after its death was noticed). */
function blockedMaterialize() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const materialize: Materialize = async () => {
    await gate;
    throw new Error("this worker was presumed dead");
  };
  leftovers.push(open);
  return { materialize, open };
}

/** An instance that claims syncs and dies in them: its materialize waits at a gate the case opens (or the cleanup does). */
function startDoomedRunner() {
  const dead = blockedMaterialize();
  // One job at a time: with a second slot, its claim still under way when the case stops it could
  // take the case's next sync too, and hold it at the gate (CI run s24h: "syncs still open").
  const doomed = syncRunner(dead.materialize, { concurrency: 1 });
  leftovers.push(() => doomed.stop());
  doomed.start();
  return { dead, doomed };
}

async function expectFullRecompute(accountId: string) {
  const synced = await storedBalances(finance, accountId);
  await finance.db.balance.deleteMany({ where: { accountId } });
  await materializeBalances(finance.db, accountId, null);
  expect(synced).toEqual(await storedBalances(finance, accountId));
}

async function checkingWithHistory() {
  const actor = newActor();
  const call = financeAs(finance, actor);
  const account = await withLiveRunner(async () => {
    const created = await call("accounts.create", {
      account: { name: "Checking", account_type: "depository", balance: 1000, opening_balance_date: "2026-01-01" },
    });
    for (const [date, amount] of [
      ["2026-01-15", 40],
      ["2026-02-10", 75],
      ["2026-03-20", -300],
    ] as const) {
      await call("transactions.create", { transaction: { account_id: created.id, date, amount, name: "Groceries" } });
    }
    // The family has had today's family sync: a runner starting later (each one queues the daily
    // syncs due when it starts) does not queue one beside the case's own.
    await call("syncs.create");
    await settled(finance);
    return created;
  });
  return { actor, call, account };
}

const jobOf = (syncId: string) => finance.db.job.findFirstOrThrow({ where: { queue: BALANCE_SYNC_QUEUE, subjectId: syncId } });

describe("a balance sync whose worker died", () => {
  it("is taken over at once and run again from its first day; the dead worker, resuming, writes nothing", async () => {
    const { call, account } = await checkingWithHistory();

    // An instance claims the sync of a backdated entry and dies mid-way.
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-10", amount: 120, name: "Backdated" } });
    const { dead, doomed } = startDoomedRunner();
    const crashed = await eventually(() => finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, status: "syncing" } }));
    // It claims nothing more (a dead instance would not); its one job stays where it is.
    const doomedStopped = doomed.stop();
    expect(crashed.windowStartDate?.toISOString().slice(0, 10)).toBe("2026-01-10");
    // A later write queues a run of its own (the one running may have read the ledger already).
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-01", amount: 10, name: "Later" } });

    const endedAt = await endJobConnection(finance, (await jobOf(crashed.id)).id);
    await withLiveRunner(async () => {
      const job = await eventually(async () => {
        const found = await jobOf(crashed.id);
        if (found.attempts < 2) throw new Error("not taken over yet");
        return found;
      });
      expect(job.startedAt!.getTime() - endedAt.getTime(), "taken over at once, not after a lease").toBeLessThan(2_000);
      await settled(finance);
    });
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: crashed.id } })).toMatchObject({ status: "completed", error: null });
    expect(await jobOf(crashed.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(100000 - 4000 - 7500 + 30000 - 12000 - 1000);
    await expectFullRecompute(account.id);

    // The dead worker resumes: its failure is not written over the run that was taken over.
    dead.open();
    await doomedStopped;
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: crashed.id } })).toMatchObject({ status: "completed", error: null });
    expect(await jobOf(crashed.id)).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("is run again as a family sync when it was one: the accounts the dead worker had started go stale", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    await withLiveRunner(async () => {
      await call("accounts.create", { account: { name: "One", account_type: "depository", balance: 10 } });
      await call("accounts.create", { account: { name: "Two", account_type: "depository", balance: 20 } });
      // Today's family sync (a runner starting later queues the daily one of a family that has none).
      await call("syncs.create");
      await settled(finance);
    });

    const queued = await call("syncs.create");
    const { dead, doomed } = startDoomedRunner();
    const child = await eventually(() => finance.db.sync.findFirstOrThrow({ where: { parentId: queued.id, status: "syncing" } }));
    const doomedStopped = doomed.stop();
    await endJobConnection(finance, (await jobOf(queued.id)).id);
    await withLiveRunner(() => settled(finance));
    dead.open();
    await doomedStopped;

    const syncs: { id: string; status: string; syncable: { type: string; id: string }; parent_id: string | null; children_count: number }[] = (
      await call("syncs.list", { per_page: 100 })
    ).data;
    expect(syncs.find((sync) => sync.id === queued.id)).toMatchObject({ status: "completed", children_count: 3 });
    expect(syncs.find((sync) => sync.id === child.id)?.status).toBe("stale");
    const rerun = syncs.filter((sync) => sync.parent_id === queued.id && sync.id !== child.id);
    expect(rerun.map((sync) => sync.status)).toEqual(["completed", "completed"]);
    // Run again as itself: no family sync was queued after it.
    const created = (await finance.db.sync.findUniqueOrThrow({ where: { id: queued.id } })).createdAt;
    expect(await finance.db.sync.count({ where: { familyId: actor.familyId, syncableType: "Family", createdAt: { gt: created } } })).toBe(0);
  });
});

describe("a balance sync's start", () => {
  it("is written only while its job is the worker's, in one statement: a worker that lost the job is refused (JobLost) and changes nothing", async () => {
    const { familyId } = newActor();
    const accountId = randomUUID();
    const sync = await finance.db.sync.create({ data: { familyId, syncableType: "Account", syncableId: accountId } });
    // A child of an earlier run of it (as a family sync's), left syncing by a worker that died.
    const child = await finance.db.sync.create({ data: { familyId, syncableType: "Account", syncableId: accountId, parentId: sync.id, status: "syncing" } });
    const leaseToken = randomUUID();
    const job = await finance.db.job.create({
      data: {
        queue: BALANCE_SYNC_QUEUE,
        familyId,
        subjectId: sync.id,
        status: "running",
        attempts: 1,
        leaseToken,
        heartbeatAt: new Date(),
        startedAt: new Date(),
      },
    });
    const queries = createSyncQueueQueries(finance.db);

    await expect(queries.start({ id: job.id, leaseToken: randomUUID() }, familyId, sync.id)).rejects.toBeInstanceOf(JobLost);
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: sync.id } })).toMatchObject({ status: "pending", syncingAt: null });
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: child.id } })).toMatchObject({ status: "syncing" });

    expect(await queries.start({ id: job.id, leaseToken }, familyId, sync.id)).toMatchObject({
      id: sync.id,
      familyId,
      syncableId: accountId,
      windowStart: null,
    });
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: sync.id } })).toMatchObject({ status: "syncing" });
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: child.id } })).toMatchObject({ status: "stale" });
    // Another family's sync is not this job's to start: nothing to do.
    expect(await queries.start({ id: job.id, leaseToken }, newActor().familyId, sync.id)).toBeNull();
  });
});

describe("a waiting balance sync", () => {
  it("is started by its job's claim, in the claim's own transaction, and ends with its job in one statement", async () => {
    const { call, account } = await checkingWithHistory();
    await withLiveRunner(async () => {
      await call("transactions.create", { transaction: { account_id: account.id, date: "2026-02-20", amount: 12, name: "Books" } });
      await settled(finance);
    });
    const sync = await finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, parentId: null }, orderBy: { createdAt: "desc" } });
    expect(sync).toMatchObject({ status: "completed", windowStartDate: new Date("2026-02-20") });
    const job = await jobOf(sync.id);
    // One transaction's clock: the claim's for the start, the end's statement for both ends.
    expect(sync.syncingAt).toEqual(job.startedAt);
    expect(sync.completedAt).toEqual(job.finishedAt);
    await expectFullRecompute(account.id);
  });
});

describe("a waiting balance sync whose row a writer holds", () => {
  it("holds back no other family's sync: its claim passes it by, and it runs once the writer commits", async () => {
    const held = await checkingWithHistory();
    const other = await checkingWithHistory();
    const syncOf = (accountId: string) =>
      finance.db.sync.findFirstOrThrow({ where: { syncableId: accountId, parentId: null }, orderBy: { createdAt: "desc" } });
    // No runner is live: the write's sync waits. A writer then holds its row, as a provider sync
    // or a rule run widening it holds it until it commits (seconds, or minutes).
    await held.call("transactions.create", { transaction: { account_id: held.account.id, date: "2026-02-21", amount: 7, name: "Held" } });
    const waiting = await syncOf(held.account.id);
    expect(waiting.status).toBe("pending");
    const writer = new pg.Client({ connectionString: databaseUrlOf(finance.db) });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("SELECT 1 FROM syncs WHERE id = $1 FOR UPDATE", [waiting.id]);
      await other.call("transactions.create", { transaction: { account_id: other.account.id, date: "2026-02-21", amount: 9, name: "Free" } });
      await withLiveRunner(async () => {
        await eventually(async () => expect((await syncOf(other.account.id)).status).toBe("completed"), { timeoutMs: 10_000 });
        expect((await syncOf(held.account.id)).status).toBe("pending");
        await writer.query("COMMIT");
        await eventually(async () => expect((await syncOf(held.account.id)).status).toBe("completed"), { timeoutMs: 10_000 });
      });
    } finally {
      await writer.query("ROLLBACK").catch(() => {});
      await writer.end();
    }
  });
});

describe("a long balance sync", () => {
  it("keeps its job by its heartbeat while another instance claims; a write arriving meanwhile is synced after it", async () => {
    const { call, account } = await checkingWithHistory();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    leftovers.push(
      () => release(),
      () => slow.stop(),
    );
    const slow = syncRunner(
      async (accountId, windowStart) => {
        await gate;
        return materializeBalances(finance.db, accountId, windowStart);
      },
      { heartbeatMs: 20 },
    );
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-20", amount: 5, name: "Slow" } });
    slow.start();
    const claimed = await eventually(() => finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, status: "syncing" } }));
    const first = await jobOf(claimed.id);
    await eventually(async () => expect((await jobOf(claimed.id)).heartbeatAt!.getTime()).toBeGreaterThan(first.heartbeatAt!.getTime()));
    // Written while the run holds its job: a later run covers it, after this one.
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-05", amount: 7, name: "Meanwhile" } });
    await withLiveRunner(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await jobOf(claimed.id)).toMatchObject({ status: "running", attempts: 1 });
      release();
      await settled(finance);
    });
    await slow.stop();
    expect((await finance.db.sync.findUniqueOrThrow({ where: { id: claimed.id } })).status).toBe("completed");
    expect(await jobOf(claimed.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(100000 - 4000 - 7500 + 30000 - 500 - 700);
    await expectFullRecompute(account.id);
  });
});

describe("a balance sync that failed", () => {
  it("is tried again when the database failed it, and ends completed; one that failed on its figures is written failed at once", async () => {
    const { call, account } = await checkingWithHistory();
    let failures = 1;
    const flaky = syncRunner(async (accountId, windowStart) => {
      if (failures-- > 0) throw new Error("Connection terminated unexpectedly");
      return realMaterialize(accountId, windowStart);
    });
    leftovers.push(() => flaky.stop());
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-02-20", amount: 3, name: "Flaky" } });
    flaky.start();
    const sync = await eventually(() => finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, status: "syncing" } }));
    await eventually(async () =>
      expect(await finance.db.sync.findUniqueOrThrow({ where: { id: sync.id } })).toMatchObject({ status: "completed", error: null }),
    );
    expect(await jobOf(sync.id)).toMatchObject({ status: "succeeded", attempts: 2, lastError: "Connection terminated unexpectedly" });
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(100000 - 4000 - 7500 + 30000 - 300);
  });
});

describe("a balance sync that ends failed without running", () => {
  it("still asks for the family's recurring scan (skipped while the sync was open)", async () => {
    const { actor, call, account } = await checkingWithHistory();
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-02-21", amount: 4, name: "Never synced" } });
    const sync = await finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, status: "pending" } });
    await finance.db.job.deleteMany({ where: { queue: RECURRING_SCAN_QUEUE, familyId: actor.familyId } });
    // Its workers died while running it as often as it may be tried: the next claim ends it failed, unrun.
    await finance.db.job.updateMany({
      where: { subjectId: sync.id },
      data: { status: "running", attempts: 5, leaseToken: randomUUID(), heartbeatAt: new Date(), startedAt: new Date() },
    });
    const runner = syncRunner();
    try {
      await runner.drain(BALANCE_SYNC_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(await finance.db.sync.findUniqueOrThrow({ where: { id: sync.id } })).toMatchObject({
      status: "failed",
      error: "The job was interrupted 5 times and was not finished.",
    });
    expect(await finance.db.job.count({ where: { queue: RECURRING_SCAN_QUEUE, familyId: actor.familyId, status: "queued" } })).toBe(1);
  });
});

describe("families at the sync queue", () => {
  it("take turns: a family's one sync starts within a second behind another family's 300, and all of those finish", async () => {
    const [busyActor, quietActor] = [newActor(), newActor()];
    const busy = financeAs(finance, busyActor);
    for (let i = 0; i < 300; i++) await busy("accounts.create", { account: { name: `Account ${i}`, account_type: "depository", balance: 100 + i } });
    const quiet = financeAs(finance, quietActor);
    const families = { familyId: { in: [busyActor.familyId, quietActor.familyId] } };
    await withLiveRunner(async () => {
      // The busy family's backlog is being worked through when the quiet family's one sync comes.
      await eventually(async () => expect(await finance.db.sync.count({ where: { familyId: busyActor.familyId, status: "completed" } })).toBeGreaterThan(5));
      const account = await quiet("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 10 } });
      const sync = await finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id } });
      const job = await eventually(async () => {
        const found = await jobOf(sync.id);
        if (!found.startedAt) throw new Error("not started yet");
        return found;
      });
      const waitedMs = job.startedAt!.getTime() - job.createdAt.getTime();
      const busyWaiting = await finance.db.sync.count({ where: { familyId: busyActor.familyId, status: "pending" } });
      expect(waitedMs, `started after ${waitedMs} ms with ${busyWaiting} of the busy family's syncs still waiting`).toBeLessThan(1_000);
      expect(busyWaiting, "the busy family's backlog was still there").toBeGreaterThan(0);
      await settled(finance, 120_000);
    });
    expect(await finance.db.sync.count({ where: { ...families, status: { not: "completed" } } })).toBe(0);
  }, 180_000);
});
