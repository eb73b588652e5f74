// Reliability: two gateway instances restarted one after the other while a client posts
// writes to them in turn, each with an Idempotency-Key, retrying once on the other instance when
// an attempt fails: no write lost, none stored twice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { databases, type Databases } from "../src/databases";
import { reportFigures, seconds } from "../src/figures";
import { startGatewayInstance, type GatewayInstance } from "../src/gateway-instance";
import { waitForHealthyStack } from "../src/health";
import { request, StatusTally, type Answer } from "../src/http";
import { startLoad } from "../src/load";
import { freePort, sleep, until } from "../src/processes";
import { CONCURRENCY, SCALE } from "../src/settings";
import { describeWithStack } from "../src/stack";
import { signUp, type User } from "../src/users";

/** Worth one retry: no answer, or the instance (or a service behind it) said it was unavailable. */
const retriable = (answer: Answer) => answer.status === 0 || answer.status === 502 || answer.status === 503;

describeWithStack("a rolling restart of two gateway instances", (stack) => {
  let db: Databases;
  let user: User;
  let account: string;
  const ports: number[] = [];
  const gateways: (GatewayInstance | undefined)[] = [];

  beforeAll(async () => {
    db = databases(stack);
    await waitForHealthyStack(stack);
    user = await signUp(stack.gatewayUrl, "rolling-restart");
    const created = await request(stack.gatewayUrl, "POST", "/api/v1/accounts", {
      apiKey: user.writeKey,
      body: { account: { name: "Rolling", account_type: "depository", balance: 1000 } },
    });
    account = created.body.id;
    for (let index = 0; index < 2; index++) {
      ports.push(await freePort());
      gateways.push(await startGatewayInstance(stack, ports[index]!));
    }
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway?.stop()));
    await db?.close();
  });

  it("loses and doubles no write that a client retrying once with its Idempotency-Key sends", async () => {
    const firstTries = new StatusTally();
    const retries = new StatusTally();
    const outcome = new Map<string, number>(); // Idempotency-Key (also the transaction's name) -> final status
    const today = new Date().toISOString().slice(0, 10);
    const write = (gateway: number, key: string) =>
      request(`http://127.0.0.1:${ports[gateway]}`, "POST", "/api/v1/transactions", {
        apiKey: user.writeKey,
        headers: { "idempotency-key": key },
        body: { transaction: { account_id: account, name: key, date: today, amount: 1 } },
      });
    const load = startLoad(CONCURRENCY, async (_client, sequence) => {
      const key = randomUUID();
      const first = sequence % 2; // round robin, as a load balancer would
      let answer = await write(first, key);
      firstTries.add(answer);
      if (retriable(answer)) {
        answer = await write(1 - first, key);
        retries.add(answer);
      }
      outcome.set(key, answer.status);
      return answer;
    });

    const restarts: { port: number; stopSeconds: number; startSeconds: number }[] = [];
    await sleep(1_000);
    for (let index = 0; index < 2; index++) {
      const stopping = Date.now();
      await gateways[index]!.stop();
      gateways[index] = undefined;
      const starting = Date.now();
      gateways[index] = await startGatewayInstance(stack, ports[index]!);
      restarts.push({ port: ports[index]!, stopSeconds: seconds(stopping, starting), startSeconds: seconds(starting) });
      await sleep(1_000);
    }
    await until(() => load.sent() >= SCALE.rollingWrites, 300_000, `${SCALE.rollingWrites} writes sent`);
    const result = await load.stop();

    const keys = [...outcome.keys()];
    const created = keys.filter((key) => outcome.get(key) === 201);
    const rows = await db.query<{ name: string; count: string }>(
      "finance",
      "SELECT name, count(*) FROM entries WHERE account_id = $1 AND kind = 'transaction' GROUP BY name",
      [account],
    );
    const stored = new Map(rows.map((row) => [row.name, Number(row.count)]));
    const lost = created.filter((key) => !stored.has(key)).length;
    const doubled = [...stored.values()].reduce((sum, count) => sum + count - 1, 0);
    const unknownToClient = [...stored.keys()].filter((name) => outcome.get(name) !== 201).length;

    await reportFigures({
      scenario: "gateway-rolling-restart",
      requestsSent: firstTries.total + retries.total,
      requestsSucceeded: created.length,
      requestsPerSecond: (firstTries.total + retries.total) / result.seconds,
      statuses: result.tally.counts, // each write's final answer
      eventsProduced: keys.length,
      stored: stored.size,
      lost,
      doubled,
      recoverySeconds: Math.max(...restarts.map((restart) => restart.startSeconds)),
      details: { writes: keys.length, firstTryStatuses: firstTries.counts, retryStatuses: retries.counts, restarts, storedWithoutA201: unknownToClient },
    });

    expect(restarts).toHaveLength(2);
    expect(created).toHaveLength(keys.length); // every write succeeded, at the latest on its retry
    expect(lost).toBe(0);
    expect(doubled).toBe(0);
    expect(unknownToClient).toBe(0);
  });
});
