// An import whose publishing worker died is taken over as soon as its publish lock is free (the
// worker's connection gone), not after the rest of its 15-minute lease; a live worker's is never
// taken; and the dead worker's late failure does not overwrite the new worker's claim.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportRepository, takePublishLock } from "../src/imports/import-repository";
import { DEFAULT_IMPORT_WORKER } from "../src/imports/import-worker";
import { holdingTransaction, newActor, queuedEmptyImport, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  // The test claims by hand: the service's own worker is stopped (its first pass, late on a busy
  // machine, would otherwise claim the test's import).
  finance = await startFinance({ importWorker: { pollMs: 3_600_000 } });
  await finance.parts.importWorker.stop();
});
afterAll(async () => finance?.stop());

describe("a publish whose worker died", () => {
  it("is taken over once its publish lock is free, never while a live worker holds it; the dead worker's failure is ignored", async () => {
    const imports = createImportRepository(finance.db);
    const id = await queuedEmptyImport(finance, newActor().familyId);
    const first = await imports.claim(DEFAULT_IMPORT_WORKER.leaseMs);
    expect(first?.id).toBe(id);
    // Just claimed: its worker is still starting its transaction.
    expect(await imports.claim(DEFAULT_IMPORT_WORKER.leaseMs)).toBeNull();

    await finance.db.import.update({ where: { id }, data: { claimedAt: new Date(Date.now() - 60_000) } });
    // A live worker's publish: its transaction holds the import's publish lock.
    const live = await holdingTransaction(finance.db, (tx) => takePublishLock(tx, id));
    expect(live.value).toBe(true);
    try {
      expect(await imports.claim(DEFAULT_IMPORT_WORKER.leaseMs)).toBeNull();
    } finally {
      await live.release();
    }

    // The worker's connection is gone (its lock with it): taken over now, 14 minutes before its lease ends.
    const second = await imports.claim(DEFAULT_IMPORT_WORKER.leaseMs);
    expect(second?.id).toBe(id);
    expect(second!.lease.getTime()).toBeGreaterThan(first!.lease.getTime());

    // The first worker, slow to start its transaction, finds the lock free but the claim gone: it writes nothing.
    await finance.db.$transaction(async (tx) => {
      expect(await takePublishLock(tx, id)).toBe(true);
      expect(await imports.stillClaimed(tx, first!)).toBe(false);
      expect(await imports.stillClaimed(tx, second!)).toBe(true);
    });
    // Its progress does not overwrite the second worker's.
    await imports.progress(second!, 7);
    await imports.progress(first!, 3);
    expect((await finance.db.import.findUniqueOrThrow({ where: { id } })).rowsDone).toBe(7);
    // The first worker, late, fails its publish: the import stays the second worker's.
    await imports.fail(first!, "The import could not be published");
    expect(await finance.db.import.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "importing", leaseExpiresAt: second!.lease });
  });
});
