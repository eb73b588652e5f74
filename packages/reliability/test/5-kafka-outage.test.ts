// Reliability: Kafka stopped under a steady load of audited requests (token refreshes,
// each one `auth.token.refreshed` event through the gateway's outbox), then started again: every
// event reaches the audit store exactly once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditCounts, databases, type Databases } from "../src/databases";
import { auditedRunFigures, reportFigures, seconds } from "../src/figures";
import { startRefreshLoad } from "../src/audited-load";
import { sleep, whenTrue } from "../src/processes";
import { CONCURRENCY, FULL, SCALE } from "../src/settings";
import { describeWithStack } from "../src/stack";
import { signUp, type User } from "../src/users";

describeWithStack("Kafka stopped under load, then started", (stack) => {
  let db: Databases;
  let users: User[];

  beforeAll(async () => {
    db = databases(stack);
    users = await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => signUp(stack.gatewayUrl, `kafka-outage-${index}`)));
  });
  afterAll(async () => db?.close());

  it("stores every event once after the outage, while every request is answered", async () => {
    const families = users.map((user) => user.familyId);
    const load = startRefreshLoad(stack.gatewayUrl, users);

    await sleep(SCALE.loadAroundOutageSeconds * 1000);
    const stopping = Date.now();
    await stack.broker.stop();
    const stoppedAt = Date.now();
    await sleep(SCALE.kafkaDownSeconds * 1000);
    // What waits for the broker: a backlog, or the outage tested nothing.
    const backlogAtRestart = (await auditCounts(db, families)).lost;
    const starting = Date.now();
    await stack.broker.start();
    const upAt = Date.now();
    await sleep(SCALE.loadAroundOutageSeconds * 1000);
    const result = await load.stop();

    const allStoredAt = await whenTrue(async () => (await auditCounts(db, families)).lost === 0, FULL ? 180_000 : 90_000);
    const recoverySeconds = allStoredAt === null ? null : seconds(upAt, allStoredAt);
    await sleep(2_000); // a redelivery arriving late would show up as a second row now
    const counts = await auditCounts(db, families);

    const refreshed = result.tally.count(200);
    await reportFigures(
      auditedRunFigures("kafka-outage", result, counts, recoverySeconds, {
        kafkaStopSeconds: seconds(stopping, stoppedAt),
        kafkaDownSeconds: seconds(stoppedAt, upAt),
        kafkaStartSeconds: seconds(starting, upAt),
        backlogAtRestart,
        refreshedEventsStored: counts.storedByType["auth.token.refreshed"] ?? 0,
        loadSeconds: result.seconds,
      }),
    );

    expect(result.tally.counts).toEqual({ "200": result.sent }); // the request path never needs the broker
    expect(backlogAtRestart).toBeGreaterThan(0);
    expect(counts.lost).toBe(0);
    expect(counts.doubled).toBe(0);
    expect(counts.deadLettered).toBe(0);
    expect(counts.storedDistinct).toBe(counts.produced);
    // One stored event per answered refresh: none lost on the way in, none written twice.
    expect(counts.storedByType["auth.token.refreshed"]).toBe(refreshed);
  });
});
