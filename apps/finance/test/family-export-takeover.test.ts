// An export whose building worker died is taken over as soon as its job's lock is free (the
// worker's connection gone), never while a live worker holds it; the old worker's later slices
// never land in the new build, and a worker killed mid-build leaves nothing that spoils the next
// build's archive.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { familyExportJob } from "../src/family-exports/family-export-job";
import { FAMILY_EXPORT_QUEUE } from "../src/family-exports/family-export-queue-queries";
import { createFamilyExportRepository } from "../src/family-exports/family-export-repository";
import { endJobConnection, eventually, financeAs, holdingTransaction, newActor, readZip, sideRunner, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
let child: ChildProcess | null = null;

beforeAll(async () => {
  // The tests run builds on runners of their own: the service's own is stopped (its first pass,
  // late on a busy machine, would otherwise take a test's export).
  finance = await startFinance({ jobs: { pollMs: 3_600_000 } });
  await finance.parts.jobs.stop();
});
afterEach(() => {
  child?.kill("SIGKILL");
  child = null;
});
afterAll(async () => finance?.stop());

/** Another instance's runner of export builds, its slices cut small. */
const exportRunner = () =>
  sideRunner(finance, (log) => [familyExportJob(finance.db, createFamilyExportRepository(finance.db), log, { sliceBytes: 256 })], {
    pollMs: 50,
    heartbeatMs: 100,
  });

/** A family with nine transactions, and its export asked for. */
async function familyWithExport() {
  const actor = newActor();
  const call = financeAs(finance, actor);
  const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: "1000" } });
  for (let i = 1; i <= 9; i++)
    await call("transactions.create", { transaction: { account_id: account.id, date: `2026-03-0${i}`, name: `Purchase ${i}`, amount: `${i}.25` } });
  return createFamilyExportRepository(finance.db).create(actor.familyId);
}

/** The rules are read last: with their table locked, a build stops there, its snapshot held. */
const lockRules = () => holdingTransaction(finance.db, (tx) => tx.$executeRawUnsafe("LOCK TABLE rules IN ACCESS EXCLUSIVE MODE"));

/** Waits until a build of `exportId` waits for the rules, with slices of its archive stored. */
async function buildWaitingOnRules(exportId: string, gone: () => string | null): Promise<void> {
  await eventually(
    async () => {
      const died = gone();
      if (died !== null) throw new Error(`the worker's process ended before its build did: ${died}`);
      const [row] = await finance.db.$queryRaw<{ waiting: number }[]>`
        SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
         WHERE c.relname = 'rules' AND NOT l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      if (row!.waiting !== 1) throw new Error("the build is not waiting on the rules yet");
      // Slices are written beside the build, not in its transaction: on a busy machine the first
      // lands after the build reached the rules (CI run newA failed here once, asserting it at once).
      if ((await finance.db.familyExportChunk.count({ where: { exportId } })) === 0) throw new Error("no slice stored yet");
    },
    { timeoutMs: 30_000 },
  );
}

/** The export completed with only one build's slices, in sequence, making a whole archive of the nine transactions. */
async function expectWholeArchive(exportId: string): Promise<void> {
  const done = await finance.db.familyExport.findUniqueOrThrow({ where: { id: exportId } });
  expect(done.status).toBe("completed");
  const chunks = await finance.db.familyExportChunk.findMany({ where: { exportId }, orderBy: { seq: "asc" } });
  expect(chunks.map((chunk) => chunk.seq)).toEqual(chunks.map((_, i) => i));
  const bytes = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data)));
  expect(bytes.length).toBe(Number(done.byteSize));
  const { files } = await readZip(bytes);
  expect(Object.keys(files)).toContain("all.ndjson");
  expect(files["transactions.csv"]!.trim().split("\n")).toHaveLength(1 + 9);
}

const jobOf = (exportId: string) => finance.db.job.findFirstOrThrow({ where: { queue: FAMILY_EXPORT_QUEUE, subjectId: exportId } });

describe("an export build whose worker died", () => {
  it("is never taken while its worker lives, is taken over at once when it dies, and the old worker's later slices never land", async () => {
    const created = await familyWithExport();
    const blocker = await lockRules();
    const dying = exportRunner();
    const other = exportRunner();
    try {
      dying.start();
      await buildWaitingOnRules(created.id, () => null);
      // Another instance polls meanwhile: a live worker's build is never its.
      other.start();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const job = await jobOf(created.id);
      expect(job).toMatchObject({ status: "running", attempts: 1 });

      // The worker's job connection ends, as with its process: the other instance takes the build over now.
      const endedAt = await endJobConnection(finance, job.id);
      const taken = await eventually(async () => {
        const found = await jobOf(created.id);
        if (found.attempts < 2) throw new Error("not taken over yet");
        return found;
      });
      expect(taken.startedAt!.getTime() - endedAt.getTime(), "taken over at once, not after a lease").toBeLessThan(2_000);
    } finally {
      // Both builds go on: the old worker's last slices are refused by the job's fence.
      await blocker.release();
    }
    try {
      await eventually(async () => expect((await jobOf(created.id)).status).toBe("succeeded"));
      await expectWholeArchive(created.id);
    } finally {
      await Promise.all([dying.stop(), other.stop()]);
    }
  });

  it("is built again from the start by another instance after its process is killed mid-build", async () => {
    const created = await familyWithExport();
    const blocker = await lockRules();
    try {
      const [{ name }] = (await finance.db.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`) as [{ name: string }];
      const url = new URL(testPostgresAdminUrl());
      url.pathname = `/${name}`;
      let stderr = "";
      child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./fixtures/export-build-child.ts", import.meta.url))], {
        env: { ...process.env, EXPORT_CHILD_DATABASE_URL: url.toString() },
        stdio: ["ignore", "ignore", "pipe"],
      });
      child.stderr!.on("data", (part: Buffer) => (stderr += part.toString()));
      let gone = false;
      const exited = new Promise((resolve) => child!.once("exit", resolve)).then(() => (gone = true));
      await buildWaitingOnRules(created.id, () => (gone ? stderr : null));
      expect((await finance.db.familyExport.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("processing");
      child.kill("SIGKILL");
      await exited;
    } finally {
      await blocker.release();
    }

    // An instance of this process takes it over as soon as the dead build's lock is gone.
    const runner = exportRunner();
    try {
      await runner.drain(FAMILY_EXPORT_QUEUE);
    } finally {
      await runner.stop();
    }
    expect(await jobOf(created.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    await expectWholeArchive(created.id);
  });
});
