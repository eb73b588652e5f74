// A family purge step under other work's locks: it gives way after its lock timeout (done: false,
// nothing half-written, no statement left waiting in the database) and finishes at a later step.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDailySyncs } from "../src/syncs/sync-queue-queries";
import { contextOf, financeAs, holdingTransaction, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ familyPurge: { lockTimeoutMs: 200, statementTimeoutMs: 400, batchSize: 100 } });
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

  it("moves on when a batch is too slow for its statement timeout: smaller batches, down to one row, instead of the same batch again forever", async () => {
    const actor = newActor();
    const as = financeAs(finance, actor);
    for (let i = 0; i < 6; i++) await as("tags.create", { tag: { name: `Slow ${i}` } });
    // Each of this family's tags takes 150 ms to delete: six in one batch pass the 400 ms timeout.
    await finance.db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION test_slow_tag_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.family_id = '${actor.familyId}'::uuid THEN PERFORM pg_sleep(0.15); END IF; RETURN OLD; END $$`);
    await finance.db.$executeRawUnsafe(`CREATE TRIGGER test_slow_tag_delete BEFORE DELETE ON tags FOR EACH ROW EXECUTE FUNCTION test_slow_tag_delete()`);
    try {
      let steps = 0;
      for (let done = false; !done; steps++) {
        if (steps > 20) throw new Error("the purge does not finish");
        done = (await purge(actor.familyId)).done;
      }
      expect(await finance.db.tag.count({ where: { familyId: actor.familyId } })).toBe(0);
    } finally {
      await finance.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_slow_tag_delete ON tags`);
    }
  });
});

describe("a family purge racing the daily sync", () => {
  it("leaves no sync of the family when a daily sync was queued while its accounts were still there (was: one row left for good)", async () => {
    const actor = newActor();
    const as = financeAs(finance, actor);
    await as("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 10 } });
    // The daily sync's reconcile, running beside the purge's last pass: it sees the family's
    // accounts (not deleted yet) and queues a family sync just before they go.
    await finance.db.$executeRawUnsafe(`CREATE FUNCTION purge_test_daily_sync() RETURNS trigger AS $$
      BEGIN
        INSERT INTO syncs (id, family_id, syncable_type, syncable_id, updated_at)
          SELECT gen_random_uuid(), OLD.family_id, 'Family', OLD.family_id, now()
           WHERE NOT EXISTS (SELECT 1 FROM syncs WHERE family_id = OLD.family_id AND syncable_type = 'Family' AND status = 'pending');
        RETURN OLD;
      END $$ LANGUAGE plpgsql`);
    await finance.db.$executeRawUnsafe(`CREATE TRIGGER purge_test_daily_sync BEFORE DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION purge_test_daily_sync()`);
    try {
      for (let step = 0; step < 20 && !(await purge(actor.familyId)).done; step++);
    } finally {
      await finance.db.$executeRawUnsafe(`DROP TRIGGER purge_test_daily_sync ON accounts`);
      await finance.db.$executeRawUnsafe(`DROP FUNCTION purge_test_daily_sync`);
    }
    expect(await finance.db.account.count({ where: { familyId: actor.familyId } })).toBe(0);
    expect(await finance.db.sync.count({ where: { familyId: actor.familyId } })).toBe(0);
  });

  it("waits for a daily sync run under way, whose sync of the family is not committed yet, and deletes that sync too (was: left behind)", async () => {
    const actor = newActor();
    const as = financeAs(finance, actor);
    await as("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 10 } });
    await settled(finance);
    // A daily sync run read the family's accounts and queued its sync; it has not committed yet.
    const run = await holdingTransaction(finance.db, async (tx) => {
      await lockDailySyncs(tx);
      await tx.$executeRaw`INSERT INTO syncs (id, family_id, syncable_type, syncable_id, updated_at)
                           VALUES (gen_random_uuid(), ${actor.familyId}::uuid, 'Family', ${actor.familyId}::uuid, now())`;
    });
    let done = false;
    try {
      for (let step = 0; step < 5 && !done; step++) done = (await purge(actor.familyId)).done;
      // It cannot finish while the run holds its syncs uncommitted.
      expect(done).toBe(false);
    } finally {
      await run.release();
    }
    for (let step = 0; step < 20 && !done; step++) done = (await purge(actor.familyId)).done;
    expect(done).toBe(true);
    expect(await finance.db.sync.count({ where: { familyId: actor.familyId } })).toBe(0);
  });
});
