// The import and export workers' queues: families take turns at imports (one family's hundred
// never all run before another's one), two workers never take the same job, and a family asking
// for exports again and again while one waits gets that one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExportTakenOver, createFamilyExportRepository } from "../src/family-exports/family-export-repository";
import { createImportRepository } from "../src/imports/import-repository";
import { newActor, queuedEmptyImport, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
const LEASE_MS = 60_000;

beforeAll(async () => {
  // The test claims by hand, so the service's own import and export workers must not claim at all.
  // Each one's first poll starts with the service; on a busy machine it could still be on its way
  // to the database when the test queues its imports, and take one (as it once did in CI). Stopping
  // them waits for that poll to end.
  finance = await startFinance({ importWorker: { pollMs: 3_600_000 }, familyExportWorker: { pollMs: 3_600_000 } });
  await Promise.all([finance.parts.importWorker.stop(), finance.parts.exportWorker.stop()]);
});
afterAll(async () => finance?.stop());

/** An import of `familyId` queued for publishing at `minute` past a fixed hour (so the order is the test's, not the clock's). */
async function queuedImport(familyId: string, minute: number): Promise<string> {
  const id = await queuedEmptyImport(finance, familyId);
  await finance.db.import.update({ where: { id }, data: { publishRequestedAt: new Date(Date.UTC(2020, 0, 1, 0, minute)) } });
  return id;
}

describe("the import queue", () => {
  it("gives families turns: each one's oldest first, then each one's second", async () => {
    const [a, b, c, d] = [newActor().familyId, newActor().familyId, newActor().familyId, newActor().familyId];
    const a1 = await queuedImport(a, 1);
    const a2 = await queuedImport(a, 2);
    const a3 = await queuedImport(a, 3);
    const b1 = await queuedImport(b, 4);
    const c1 = await queuedImport(c, 5);
    const imports = createImportRepository(finance.db);
    const order: string[] = [];
    for (let i = 0; i < 5; i++) order.push((await imports.claim(LEASE_MS))!.id);
    // Oldest first, as before, would be a1, a2, a3, b1, c1.
    expect(order).toEqual([a1, b1, c1, a2, a3]);
    expect(await imports.claim(LEASE_MS)).toBeNull();

    // Later, a family served before waits behind one never served, though it asked first.
    const a4 = await queuedImport(a, 6);
    const d1 = await queuedImport(d, 7);
    expect((await imports.claim(LEASE_MS))!.id).toBe(d1);
    expect((await imports.claim(LEASE_MS))!.id).toBe(a4);
    await finance.db.import.deleteMany({ where: { familyId: { in: [a, b, c, d] } } });
  });

  it("hands one job to one of two workers claiming at once", async () => {
    const family = newActor().familyId;
    const only = await queuedImport(family, 10);
    const imports = createImportRepository(finance.db);
    const claims = await Promise.all(Array.from({ length: 6 }, () => imports.claim(LEASE_MS)));
    expect(claims.filter((claim) => claim !== null).map((claim) => claim!.id)).toEqual([only]);
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

    // Once it is being built, a new request is a new export (it must see what changed since).
    const claim = await exportsRepo.claim(LEASE_MS);
    expect(claim?.id).toBe(first.id);
    const next = await exportsRepo.create(family);
    expect(next.id).not.toBe(first.id);
    expect(next.status).toBe("pending");
    expect(await finance.db.familyExport.count({ where: { familyId: family } })).toBe(2);

    const other = newActor().familyId;
    const parallel = await Promise.all(Array.from({ length: 8 }, () => exportsRepo.create(other)));
    expect(new Set(parallel.map((row) => row.id)).size).toBe(1);
  });

  it("refuses a slice from a worker whose lease lapsed and was taken over: it never lands in the new build", async () => {
    const exportsRepo = createFamilyExportRepository(finance.db);
    const mine = await exportsRepo.create(newActor().familyId);
    const claimOf = async () => {
      for (;;) {
        const claim = await exportsRepo.claim(LEASE_MS);
        if (!claim) throw new Error("the export was not claimed");
        if (claim.id === mine.id) return claim;
      }
    };
    const stale = await claimOf();
    await exportsRepo.appendChunk(stale, 0, new Uint8Array([1]));
    // Its worker stalls past its lease; another claims the export (and clears the slices).
    await finance.db.familyExport.update({ where: { id: mine.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const fresh = await claimOf();
    await expect(exportsRepo.appendChunk(stale, 1, new Uint8Array([2]))).rejects.toBeInstanceOf(ExportTakenOver);
    await exportsRepo.appendChunk(fresh, 0, new Uint8Array([3]));
    const slices = await finance.db.familyExportChunk.findMany({ where: { exportId: mine.id } });
    expect(slices.map((slice) => [slice.seq, [...slice.data]])).toEqual([[0, [3]]]);
  });
});
