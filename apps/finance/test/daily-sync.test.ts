import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dateOf, todayIso } from "../src/ledger/dates";
import { BALANCE_SYNC_QUEUE, createSyncQueueQueries } from "../src/syncs/sync-queue-queries";
import { financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

describe("the daily sync", () => {
  it("queues one family sync per family per day, catching up after a day without one, and brings the rows to today", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 10 } });
    await settled(finance);
    const queue = createSyncQueueQueries(finance.db);
    const familySyncs = () => finance.db.sync.count({ where: { familyId: actor.familyId, syncableType: "Family" } });

    // As if a day passed since the family last synced.
    await finance.db.sync.updateMany({ where: { familyId: actor.familyId }, data: { createdAt: new Date(Date.now() - 86_400_000) } });
    await finance.db.balance.deleteMany({ where: { accountId: account.id, date: dateOf(todayIso()) } });
    const before = await familySyncs();

    expect(await queue.queueDailyFamilySyncs(todayIso())).toBeGreaterThanOrEqual(1);
    expect(await familySyncs()).toBe(before + 1);
    // At most once a day, also when two instances ask at once.
    const again = await Promise.all([queue.queueDailyFamilySyncs(todayIso()), queue.queueDailyFamilySyncs(todayIso())]);
    expect(again).toEqual([0, 0]);
    expect(await familySyncs()).toBe(before + 1);

    finance.parts.jobs.poke(BALANCE_SYNC_QUEUE);
    await settled(finance);
    const last = await finance.db.balance.findFirst({ where: { accountId: account.id }, orderBy: { date: "desc" } });
    expect(last?.date.toISOString().slice(0, 10)).toBe(todayIso());
  });
});
