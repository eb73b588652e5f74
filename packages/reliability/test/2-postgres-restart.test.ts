// Reliability: PostgreSQL (every service's database) stopped and started again under
// load. The services ride it out in the same processes (pids unchanged, no supervisor restart);
// meanwhile requests answer 503 with the error body and Retry-After, none 500; every write
// answered 201 is stored once and the balances come right.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { databases, type Databases } from "../src/databases";
import { reportFigures, seconds } from "../src/figures";
import { financeBooks, startTransactionLoad } from "../src/finance-load";
import { waitForHealthyStack } from "../src/health";
import { request, StatusTally, type Answer } from "../src/http";
import { startLoad } from "../src/load";
import { pidOf, sleep, whenTrue } from "../src/processes";
import { CONCURRENCY, SCALE } from "../src/settings";
import { describeWithStack } from "../src/stack";
import { signUp, type User } from "../src/users";

const APPS = ["gateway", "finance", "chat", "notifications", "audit"] as const;

/** An answer that is not a success: what the issue allows during the outage is a 503 with its body and Retry-After. */
interface Refusal {
  what: string;
  status: number;
  error: unknown;
  retryAfter: string | null;
}

describeWithStack("PostgreSQL restarted under load", (stack) => {
  let db: Databases;
  let user: User;

  beforeAll(async () => {
    db = databases(stack);
    await waitForHealthyStack(stack);
    user = await signUp(stack.gatewayUrl, "postgres-restart");
  });
  afterAll(async () => db?.close());

  it("services recover in the same processes; meanwhile 503 with Retry-After, never 500; nothing lost", async () => {
    const pidsBefore = await Promise.all(APPS.map((app) => pidOf(app, stack.dataDir)));
    const logBefore = (await readFile(stack.npmStartLog, "utf8")).length;

    // Writes to finance (with their balance syncs) and reads of every kind of store: finance, audit, the gateway's own.
    const writes = await startTransactionLoad(stack.gatewayUrl, user, CONCURRENCY / 2);
    const refusals: Refusal[] = [];
    const reads = [
      { what: "GET /api/v1/accounts", send: () => request(stack.gatewayUrl, "GET", "/api/v1/accounts", { apiKey: user.writeKey }) },
      { what: "GET /api/v1/audit-logs", send: () => request(stack.gatewayUrl, "GET", "/api/v1/audit-logs", { token: user.accessToken }) },
      { what: "GET /api/v1/api_keys", send: () => request(stack.gatewayUrl, "GET", "/api/v1/api_keys", { token: user.accessToken }) },
    ];
    let lastReadOk = 0;
    const readLoad = startLoad(CONCURRENCY / 2, async (_client, sequence) => {
      const read = reads[sequence % reads.length]!;
      const answer: Answer = await read.send();
      if (answer.status === 200) lastReadOk = Date.now();
      else refusals.push({ what: read.what, status: answer.status, error: answer.body?.error ?? answer.error, retryAfter: answer.headers.get("retry-after") });
      return answer;
    });

    await sleep(SCALE.loadAroundRestartSeconds * 1000);
    const stopping = Date.now();
    await stack.cluster.stop();
    const stoppedAt = Date.now();
    await sleep(SCALE.postgresDownSeconds * 1000);
    await stack.cluster.start();
    const upAt = Date.now();
    // Recovered: reads answer 200 again and a write goes through.
    const createdAtRestart = writes.created.size;
    const recoveredAt = await whenTrue(() => lastReadOk > upAt && writes.created.size > createdAtRestart, 60_000);
    const recoverySeconds = recoveredAt === null ? null : seconds(upAt, recoveredAt);
    await sleep(SCALE.loadAroundRestartSeconds * 1000);
    const [readResult, writeResult] = await Promise.all([readLoad.stop(), writes.stop()]);

    await whenTrue(async () => (await financeBooks(db, user.familyId, [...writes.created.values()])).wrongBalances.length === 0, 90_000);
    const books = await financeBooks(db, user.familyId, [...writes.created.values()]);
    const pidsAfter = await Promise.all(APPS.map((app) => pidOf(app, stack.dataDir)));
    const supervisorSaid = (await readFile(stack.npmStartLog, "utf8")).slice(logBefore);

    const statuses = new StatusTally();
    for (const tally of [readResult.tally, writeResult.tally])
      for (const [status, count] of Object.entries(tally.counts)) statuses.counts[status] = (statuses.counts[status] ?? 0) + count;
    const sent = readResult.sent + writeResult.sent;
    await reportFigures({
      scenario: "postgres-restart",
      requestsSent: sent,
      requestsSucceeded: statuses.count(200) + statuses.count(201),
      requestsPerSecond: sent / readResult.seconds,
      statuses: statuses.counts,
      eventsProduced: writes.created.size,
      stored: books.answeredFound,
      lost: writes.created.size - books.answeredFound,
      doubled: books.doubledNames,
      recoverySeconds,
      details: {
        postgresStopSeconds: seconds(stopping, stoppedAt),
        postgresDownSeconds: seconds(stoppedAt, upAt),
        readStatuses: readResult.tally.counts,
        writeStatuses: writeResult.tally.counts,
        // Each kind of refusal once, e.g. {"what":"GET /api/v1/accounts","status":500,"error":"internal_error","retryAfter":null}.
        refusalKinds: [...new Map(refusals.map((refusal) => [JSON.stringify(refusal), refusal])).values()],
        refusalsByRoute: Object.fromEntries(reads.map((read) => [read.what, refusals.filter((refusal) => refusal.what === read.what).length])),
        pidsUnchanged: pidsAfter.every((pid, index) => pid === pidsBefore[index]),
        committedWithoutA201: books.entries - books.answeredFound,
      },
    });

    expect(recoverySeconds).not.toBeNull();
    // The supervisor's words first: when a process did restart, the failure then says why.
    expect(supervisorSaid).not.toMatch(/exited unexpectedly/);
    expect(pidsAfter).toEqual(pidsBefore);
    expect(statuses.count(500)).toBe(0);
    // Every request that did not succeed was refused the documented way.
    const allowed = Object.keys(statuses.counts).filter((status) => !["200", "201", "503"].includes(status));
    expect(allowed).toEqual([]);
    expect(refusals.filter((refusal) => refusal.error !== "service_unavailable" || refusal.retryAfter === null)).toEqual([]);
    expect(books.answeredFound).toBe(writes.created.size);
    expect(books.doubledNames).toBe(0);
    expect(books.wrongBalances).toEqual([]);
  });
});
