import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@hearth/service-kit";
import { createAccountRepository } from "../src/accounts/account-repository";
import { materializeBalances } from "../src/balances/balance-materializer";
import { createSyncQueueQueries } from "../src/syncs/sync-queue-queries";
import { createSyncWorker } from "../src/syncs/sync-worker";
import { createTransferMatchQueries } from "../src/transfers/transfer-match-queries";
import { createTransferMatcher } from "../src/transfers/transfer-matcher";
import { eventually, financeAs, newActor, settled, startFinance, storedBalances, type RunningFinance } from "./support";

let finance: RunningFinance;
/** What a crashed instance's claims are taken with (they are expired by hand, never waited out). */
const LEASE_MS = 30_000;

beforeAll(async () => {
  // Abandoned claims are looked for often, so a test does not wait the production interval.
  finance = await startFinance({ syncLease: { recoverEveryMs: 50 } });
});
afterAll(async () => finance?.stop());

/** The instance holding these claims died a while ago: its leases ran out without being renewed. */
async function abandon(ids: string[]) {
  await finance.db.$executeRaw`
    UPDATE syncs SET syncing_at = now() - interval '1 hour', lease_expires_at = now() - interval '1 second'
     WHERE id = ANY(${ids}::uuid[])`;
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
  const account = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: 1000, opening_balance_date: "2026-01-01" },
  });
  for (const [date, amount] of [
    ["2026-01-15", 40],
    ["2026-02-10", 75],
    ["2026-03-20", -300],
  ] as const) {
    await call("transactions.create", { transaction: { account_id: account.id, date, amount, name: "Groceries" } });
  }
  await settled(finance);
  return { actor, call, account };
}

describe("sync leases", () => {
  it("re-run a sync cut off mid-way from its first day, even after a later write synced on top of the stale days", async () => {
    const { call, account } = await checkingWithHistory();

    // An instance claims the sync of a backdated entry and dies mid-way: its claim is never renewed.
    await finance.parts.worker.stop();
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-10", amount: 120, name: "Backdated" } });
    const crashed = await createSyncQueueQueries(finance.db).claim(LEASE_MS);
    expect(crashed).toMatchObject({ syncableId: account.id, windowStart: "2026-01-10" });
    await finance.parts.worker.start();

    // A later write syncs from its own day, on top of stored days that miss the backdated entry.
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-01", amount: 10, name: "Later" } });
    await eventually(async () =>
      expect(await finance.db.sync.count({ where: { syncableId: account.id, status: { in: ["pending", "syncing"] }, id: { not: crashed!.id } } })).toBe(0),
    );

    // The live instance notices the lapsed lease without a restart and runs the lost window again.
    await abandon([crashed!.id]);
    await settled(finance);
    expect((await finance.db.sync.findUniqueOrThrow({ where: { id: crashed!.id } })).status).toBe("stale");
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(100000 - 4000 - 7500 + 30000 - 12000 - 1000);
    await expectFullRecompute(account.id);
  });

  it("recover an abandoned family sync as a family sync, and its started children with it", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const first = await call("accounts.create", { account: { name: "One", account_type: "depository", balance: 10 } });
    await call("accounts.create", { account: { name: "Two", account_type: "depository", balance: 20 } });
    await settled(finance);

    await finance.parts.worker.stop();
    const queued = await call("syncs.create");
    const queue = createSyncQueueQueries(finance.db);
    const crashed = await queue.claim(LEASE_MS);
    expect(crashed).toMatchObject({ id: queued.id, syncableType: "Family" });
    const child = await queue.startChild(crashed!, first.id);
    await abandon([crashed!.id, child.id]);
    await finance.parts.worker.start();
    await settled(finance);

    const syncs: { id: string; status: string; syncable: { type: string; id: string }; parent_id: string | null; children_count: number }[] = (
      await call("syncs.list", { per_page: 100 })
    ).data;
    expect(syncs.find((sync) => sync.id === queued.id)?.status).toBe("stale");
    expect(syncs.find((sync) => sync.id === child.id)?.status).toBe("stale");
    const reruns = syncs.filter((sync) => sync.syncable.type === "Family" && sync.id !== queued.id);
    expect(reruns).toHaveLength(1);
    expect(reruns[0]).toMatchObject({ status: "completed", syncable: { id: actor.familyId }, children_count: 2 });
    expect(syncs.filter((sync) => sync.syncable.type === "Account" && sync.syncable.id === actor.familyId)).toEqual([]);
  });

  it("are renewed while a long run works, and a write arriving meanwhile is synced after it", async () => {
    const { call, account } = await checkingWithHistory();
    await finance.parts.worker.stop();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = createSyncWorker({
      queue: createSyncQueueQueries(finance.db),
      accounts: createAccountRepository(finance.db),
      materialize: async (accountId, windowStart) => {
        await gate;
        return materializeBalances(finance.db, accountId, windowStart);
      },
      matcher: createTransferMatcher(createTransferMatchQueries(finance.db)),
      log: createLogger("slow-worker", "silent"),
      lease: { ms: 5_000, renewEveryMs: 20, recoverEveryMs: 60_000 },
    });
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-20", amount: 5, name: "Slow" } });
    await slow.start();
    const claimed = await eventually(() => finance.db.sync.findFirstOrThrow({ where: { syncableId: account.id, status: "syncing" } }));
    await eventually(async () => {
      const now = await finance.db.sync.findUniqueOrThrow({ where: { id: claimed.id } });
      expect(now.leaseExpiresAt!.getTime()).toBeGreaterThan(claimed.leaseExpiresAt!.getTime());
    });
    // Written while the run holds its claim: a later run covers it.
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-01-05", amount: 7, name: "Meanwhile" } });
    release();
    await settled(finance);
    await slow.stop();
    await finance.parts.worker.start();
    expect((await finance.db.sync.findUniqueOrThrow({ where: { id: claimed.id } })).status).toBe("completed");
    expect((await call("accounts.get", { id: account.id })).balance_cents).toBe(100000 - 4000 - 7500 + 30000 - 500 - 700);
    await expectFullRecompute(account.id);
  });

  it("keep a run that lost its lease from marking itself done; the window it held is queued again", async () => {
    const { call, account } = await checkingWithHistory();
    await finance.parts.worker.stop();
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-02-01", amount: 1, name: "Lost" } });
    const queue = createSyncQueueQueries(finance.db);
    const lost = await queue.claim(LEASE_MS);
    // A write after the claim queues its own, later window; the lost window widens it.
    await call("transactions.create", { transaction: { account_id: account.id, date: "2026-03-05", amount: 2, name: "After" } });
    await abandon([lost!.id]);
    await queue.requeueExpired();
    expect(await queue.finish(lost!.id, {})).toBe(false);
    expect((await finance.db.sync.findUniqueOrThrow({ where: { id: lost!.id } })).status).toBe("stale");
    const pending = await finance.db.sync.findMany({ where: { syncableId: account.id, status: "pending" } });
    expect(pending.map((sync) => sync.windowStartDate?.toISOString().slice(0, 10))).toEqual(["2026-02-01"]);
    await finance.parts.worker.start();
    await settled(finance);
    await expectFullRecompute(account.id);
  });
});
