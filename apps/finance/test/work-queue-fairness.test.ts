// The import and export queues: families take turns at imports (one family's hundred never all
// run before another's one), two instances never run the same publish, and a family asking for
// exports again and again while one waits gets that one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAMILY_EXPORT_QUEUE } from "../src/family-exports/family-export-queue-queries";
import { createFamilyExportRepository } from "../src/family-exports/family-export-repository";
import { IMPORT_PUBLISH_QUEUE } from "../src/imports/import-publish-queue-queries";
import { newActor, queuedEmptyImport, startFinance, type RunningFinance, importPublishRunner } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  // The test runs the queues by hand, so the service's own job runner must not at all. Its first
  // poll starts with the service; on a busy machine it could still be on its way to the database
  // when the test queues its imports, and take one (as it once did in CI). Stopping it waits for
  // that poll to end.
  finance = await startFinance({ jobs: { pollMs: 3_600_000 } });
  await finance.parts.jobs.stop();
});
afterAll(async () => finance?.stop());

/** An instance's job runner of import publishes, on the test's database. */
const importRunner = () => importPublishRunner(finance);

/** An import of `familyId` queued for publishing at `minute` past a fixed hour (so the order is the test's, not the clock's). */
async function queuedImport(familyId: string, minute: number): Promise<string> {
  const id = await queuedEmptyImport(finance, familyId);
  await finance.db.job.updateMany({ where: { subjectId: id }, data: { runAfter: new Date(Date.UTC(2020, 0, 1, 0, minute)) } });
  return id;
}

/** The imports of these families in the order their publishes ran. */
async function publishOrder(families: string[]): Promise<string[]> {
  const jobs = await finance.db.job.findMany({ where: { queue: IMPORT_PUBLISH_QUEUE, familyId: { in: families } }, orderBy: { startedAt: "asc" } });
  return jobs.map((job) => job.subjectId!);
}

describe("the import queue", () => {
  it("gives families turns: each one's oldest first, then each one's second", async () => {
    const [a, b, c, d] = [newActor().familyId, newActor().familyId, newActor().familyId, newActor().familyId];
    const a1 = await queuedImport(a, 1);
    const a2 = await queuedImport(a, 2);
    const a3 = await queuedImport(a, 3);
    const b1 = await queuedImport(b, 4);
    const c1 = await queuedImport(c, 5);
    const runner = importRunner();
    try {
      await runner.drain(IMPORT_PUBLISH_QUEUE);
      // Oldest first, as before, would be a1, a2, a3, b1, c1.
      expect(await publishOrder([a, b, c])).toEqual([a1, b1, c1, a2, a3]);

      // Later, a family served before waits behind one never served, though it asked first.
      const a4 = await queuedImport(a, 6);
      const d1 = await queuedImport(d, 7);
      await runner.drain(IMPORT_PUBLISH_QUEUE);
      expect((await publishOrder([a, d])).slice(-2)).toEqual([d1, a4]);
    } finally {
      await runner.stop();
    }
    await finance.db.import.deleteMany({ where: { familyId: { in: [a, b, c, d] } } });
  });

  it("hands one publish to one of two instances claiming at once", async () => {
    const family = newActor().familyId;
    const only = await queuedImport(family, 10);
    const runners = [importRunner(), importRunner()];
    try {
      await Promise.all(runners.flatMap((runner) => [runner.drain(IMPORT_PUBLISH_QUEUE), runner.drain(IMPORT_PUBLISH_QUEUE)]));
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
    }
    expect(await finance.db.job.findMany({ where: { subjectId: only }, select: { status: true, attempts: true } })).toEqual([
      { status: "succeeded", attempts: 1 },
    ]);
    expect(await finance.db.import.findUniqueOrThrow({ where: { id: only } })).toMatchObject({ status: "complete" });
    await finance.db.import.deleteMany({ where: { familyId: family } });
  });
});

describe("the export queue", () => {
  it("answers a family asking again while its export waits with that export, at once or not", async () => {
    const family = newActor().familyId;
    const exportsRepo = createFamilyExportRepository(finance.db);
    const first = await exportsRepo.create(family);
    expect((await exportsRepo.create(family)).id).toBe(first.id);
    const raced = await Promise.all(Array.from({ length: 8 }, () => exportsRepo.create(family)));
    expect(new Set(raced.map((row) => row.id))).toEqual(new Set([first.id]));

    expect(await finance.db.job.count({ where: { queue: FAMILY_EXPORT_QUEUE, subjectId: first.id } })).toBe(1);

    // Once it is being built, a new request is a new export (it must see what changed since), with a job of its own.
    await finance.db.familyExport.update({ where: { id: first.id }, data: { status: "processing" } });
    const next = await exportsRepo.create(family);
    expect(next.id).not.toBe(first.id);
    expect(next.status).toBe("pending");
    expect(await finance.db.familyExport.count({ where: { familyId: family } })).toBe(2);
    expect(await finance.db.job.count({ where: { queue: FAMILY_EXPORT_QUEUE, familyId: family } })).toBe(2);

    const other = newActor().familyId;
    const parallel = await Promise.all(Array.from({ length: 8 }, () => exportsRepo.create(other)));
    expect(new Set(parallel.map((row) => row.id)).size).toBe(1);
  });
});
