// Reliability: a service SIGKILLed under load and started again by npm start's
// supervisor. The audit service mid-consume: no event lost, none stored twice. The finance
// service mid-write (transactions answered while their balance syncs run): every 201 is there
// once, and every balance equals a full recompute.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRefreshLoad } from "../src/audited-load";
import { auditCounts, databases, type Databases } from "../src/databases";
import { auditedRunFigures, reportFigures, seconds } from "../src/figures";
import { financeBooks, queueFullRecompute, startTransactionLoad } from "../src/finance-load";
import { waitForHealthyStack } from "../src/health";
import { until, whenTrue } from "../src/processes";
import { killAndAwaitRestart } from "../src/service-kill";
import { CONCURRENCY, SCALE } from "../src/settings";
import { describeWithStack } from "../src/stack";
import { signUp, type User } from "../src/users";

describeWithStack("a service SIGKILLed under load", (stack) => {
  let db: Databases;

  beforeAll(async () => {
    db = databases(stack);
    await waitForHealthyStack(stack);
  });
  afterAll(async () => db?.close());

  it("audit service killed mid-consume: after the supervisor restarts it, nothing lost, nothing doubled", async () => {
    const users: User[] = await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => signUp(stack.gatewayUrl, `audit-kill-${index}`)));
    const families = users.map((user) => user.familyId);
    const load = startRefreshLoad(stack.gatewayUrl, users, SCALE.auditBurst);

    // Killed while it stores: some of the burst stored, more waiting.
    let atKill = await auditCounts(db, families);
    await until(
      async () => {
        atKill = await auditCounts(db, families);
        return (atKill.storedByType["auth.token.refreshed"] ?? 0) >= SCALE.auditBurst / 10 && atKill.produced > atKill.storedDistinct;
      },
      120_000,
      "the audit service storing the burst, with events still to store",
    );
    const { killedAt, backAfterSeconds: backAfter } = await killAndAwaitRestart(stack, "audit");
    const result = await load.done;

    const allStoredAt = await whenTrue(async () => (await auditCounts(db, families)).lost === 0, 120_000);
    const recoverySeconds = allStoredAt === null ? null : seconds(killedAt, allStoredAt);
    const counts = await auditCounts(db, families);
    const log = await readFile(stack.npmStartLog, "utf8");

    await reportFigures(
      auditedRunFigures("audit-sigkill", result, counts, recoverySeconds, {
        producedAtKill: atKill.produced,
        storedAtKill: atKill.storedDistinct,
        auditBackSeconds: backAfter,
      }),
    );

    expect(log).toMatch(/audit exited unexpectedly \(killed by SIGKILL\); starting it again/);
    expect(atKill.produced - atKill.storedDistinct).toBeGreaterThan(0); // killed with events still to store
    expect(result.tally.counts).toEqual({ "200": SCALE.auditBurst }); // audit is off the request path
    expect(counts.lost).toBe(0);
    expect(counts.doubled).toBe(0);
    expect(counts.deadLettered).toBe(0);
    expect(counts.storedByType["auth.token.refreshed"]).toBe(SCALE.auditBurst);
  });

  it("finance service killed mid-write: every 201 there once, balances equal a full recompute", async () => {
    const user = await signUp(stack.gatewayUrl, "finance-kill");
    const load = await startTransactionLoad(stack.gatewayUrl, user, CONCURRENCY);

    // Killed while transactions are written and their balance syncs run.
    await until(() => load.created.size >= SCALE.financeWrites / 4, 120_000, "a quarter of the writes answered");
    const syncsAtKill = await db.query<{ status: string; count: string }>(
      "finance",
      "SELECT status, count(*) FROM syncs WHERE family_id = $1 GROUP BY status",
      [user.familyId],
    );
    const { killedAt, backAfterSeconds: backAfter } = await killAndAwaitRestart(stack, "finance");
    await until(() => load.created.size >= SCALE.financeWrites, 180_000, "every write answered");
    const result = await load.stop();

    // Balances converge on their own (the killed sync's lease runs out and it runs again).
    const balancedAt = await whenTrue(async () => (await financeBooks(db, user.familyId, [...load.created.values()])).wrongBalances.length === 0, 120_000);
    const recoverySeconds = balancedAt === null ? null : seconds(killedAt, balancedAt);

    const recompute = await queueFullRecompute(stack.gatewayUrl, db, user);
    const after = await financeBooks(db, user.familyId, [...load.created.values()]);
    const log = await readFile(stack.npmStartLog, "utf8");

    await reportFigures({
      scenario: "finance-sigkill",
      requestsSent: result.sent,
      requestsSucceeded: result.tally.count(201),
      requestsPerSecond: result.perSecond,
      statuses: result.tally.counts,
      eventsProduced: load.created.size,
      stored: after.answeredFound,
      lost: load.created.size - after.answeredFound,
      doubled: after.doubledNames,
      recoverySeconds,
      details: {
        financeBackSeconds: backAfter,
        syncsAtKill: Object.fromEntries(syncsAtKill.map((row) => [row.status, Number(row.count)])),
        entriesStored: after.entries,
        committedWithoutA201: after.entries - after.answeredFound,
        accounts: after.accounts.length,
        balanceRowsChangedByFullRecompute: recompute.rowsChanged,
        fullRecomputeSeconds: recompute.seconds,
      },
    });

    expect(log).toMatch(/finance exited unexpectedly \(killed by SIGKILL\); starting it again/);
    expect(syncsAtKill.length).toBeGreaterThan(0); // killed with balance syncs queued or running
    // While finance was down its routes answered 503 (or a 502 for a request cut by the kill), never 500.
    expect(result.tally.count(500)).toBe(0);
    expect(result.tally.count(503)).toBeGreaterThan(0);
    expect(after.answeredFound).toBe(load.created.size);
    expect(after.doubledNames).toBe(0);
    expect(after.wrongBalances).toEqual([]);
    expect(recompute.rowsChanged).toBe(0);
    expect(recompute.failedSyncs).toBe(0);
  });
});
