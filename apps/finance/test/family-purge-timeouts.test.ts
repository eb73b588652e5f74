// A family purge step under other work's locks: it gives way after its lock timeout (done: false,
// nothing half-written, no statement left waiting in the database) and finishes at a later step.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextOf, financeAs, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ familyPurge: { lockTimeoutMs: 200, statementTimeoutMs: 5_000 } });
});
afterAll(async () => finance?.stop());

const purge = async (familyId: string) =>
  (await finance.call("familyData.purge", "mutation", { familyId, scope: "financial_data" }, contextOf(null))) as { done: boolean; deleted: number };

describe("a family purge step", () => {
  it("gives way to a lock held on the family's rows, leaves no statement waiting, and finishes once the lock is gone", async () => {
    const actor = newActor();
    const as = financeAs(finance, actor);
    for (const name of ["Groceries run", "Weekly", "Holiday"]) await as("tags.create", { tag: { name } });

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction (a long export, a sync) holds the family's tags.
    const holder = finance.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM tags WHERE family_id = ${actor.familyId}::uuid FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 30_000 },
    );
    await lockTaken;
    try {
      const started = Date.now();
      const step = await purge(actor.familyId);
      expect(step.done).toBe(false);
      // Within the lock timeout (and its margin), not the 10 s of the caller's timeout.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await finance.db.tag.count({ where: { familyId: actor.familyId } })).toBe(3);
      // No DELETE is left waiting on the lock after the step answered.
      const waiting = await finance.db.$queryRaw<{ n: bigint }[]>`
        SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'DELETE FROM "tags"%' AND state <> 'idle'`;
      expect(Number(waiting[0]?.n ?? 0)).toBe(0);
    } finally {
      release();
      await holder;
    }
    expect((await purge(actor.familyId)).done).toBe(true);
    expect(await finance.db.tag.count({ where: { familyId: actor.familyId } })).toBe(0);
  });
});
