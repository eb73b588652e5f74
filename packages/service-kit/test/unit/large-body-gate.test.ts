import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { INTERNAL_AUTH_HEADER } from "../../src/internal-auth";
import { createLargeBodyGate } from "../../src/trpc/large-body-gate";

const LARGE = "x".repeat(64 * 1024);
/** Long enough for a request sent to reach the gate, on a busy machine too: the cases rely on the order of arrival. */
const ARRIVED_MS = 250;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.close(resolve);
          server.closeAllConnections();
        }),
    ),
  );
});

/** A server behind the gate (one slot, 16 KiB threshold) whose handler reads the body, then answers when the test lets it. */
async function gatedServer(maxWaitMs = 5_000) {
  const gate = createLargeBodyGate({ thresholdBytes: 16 * 1024, slots: 1, waiting: 4, waitingPerFamily: 2, maxWaitMs, maxBodyBytes: 1024 * 1024 });
  const started: string[] = [];
  const release: (() => void)[] = [];
  const server = createServer((req, res) =>
    gate(req, res, () => {
      req.resume();
      req.once("end", () => {
        started.push(String(req.headers["x-name"]));
        release.push(() => res.end("done"));
      });
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const send = async (name: string, familyId: string, body: string, signal?: AbortSignal) => {
    const token = await new SignJWT({ ctx: { actor: { familyId } } }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("unverified here"));
    // As the gateway sends it: the client's request id after the token (dots and all).
    const header = `${token}; request-id=client.chosen.${name}`;
    const res = await fetch(url, { method: "POST", headers: { "x-name": name, [INTERNAL_AUTH_HEADER]: header }, body, ...(signal ? { signal } : {}) });
    return { status: res.status, body: await res.text() };
  };
  return { started, release, send, url };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe("the large-body gate", () => {
  it("lets small bodies through at once while a large one holds the slot, and gives families turns at it", async () => {
    const { started, release, send, url } = await gatedServer();
    const answers = [send("a1", "family-a", LARGE)];
    await until(() => started.length === 1);
    answers.push(send("a2", "family-a", LARGE));
    await new Promise((resolve) => setTimeout(resolve, ARRIVED_MS));
    answers.push(send("b1", "family-b", LARGE));
    await new Promise((resolve) => setTimeout(resolve, ARRIVED_MS));
    answers.push(send("small", "family-a", "{}"));
    await until(() => started.includes("small"));
    // A request without a body (a query) is never held either.
    answers.push(fetch(`${url}?input=%7B%7D`, { headers: { "x-name": "query" } }).then(async (res) => ({ status: res.status, body: await res.text() })));
    await until(() => started.includes("query"));
    expect(started).toEqual(["a1", "small", "query"]);
    release.shift()!();
    // Both have none running once a1 ends; family-b was never served, family-a just was: b goes first.
    await until(() => started.length === 4);
    expect(started).toEqual(["a1", "small", "query", "b1"]);
    while (started.length < 5 || release.length > 0) {
      release.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(started).toEqual(["a1", "small", "query", "b1", "a2"]);
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("refuses a family's large body past its share of the waiting line, unread, as a rate_limit_exceeded error; others still wait", async () => {
    const { started, release, send } = await gatedServer();
    const holding = send("a1", "family-a", LARGE);
    await until(() => started.length === 1);
    const waiting = [send("a2", "family-a", LARGE), send("a3", "family-a", LARGE)];
    await new Promise((resolve) => setTimeout(resolve, ARRIVED_MS));
    const refused = await send("a4", "family-a", LARGE);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { data: { httpStatus: 429, appError: { code: "rate_limit_exceeded", details: { reset_in_seconds: 2 } } } },
    });
    const other = send("b1", "family-b", LARGE);
    while (started.length < 4 || release.length > 0) {
      release.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(started).not.toContain("a4");
    expect((await Promise.all([holding, ...waiting, other])).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  });

  it("refuses a large body that waited its longest, and gives a waiting place back when its caller gives up", async () => {
    const { started, release, send } = await gatedServer(300);
    const holding = send("a1", "family-a", LARGE);
    await until(() => started.length === 1);
    const waited = performance.now();
    const tooLong = await send("a2", "family-a", LARGE);
    expect(tooLong.status).toBe(429);
    expect(performance.now() - waited).toBeGreaterThanOrEqual(250);
    // Two of the family's wait, then their caller gives up: the family may wait again.
    const callers = [new AbortController(), new AbortController()];
    const abandoned = callers.map((caller, i) => send(`gone${i}`, "family-a", LARGE, caller.signal).catch(() => null));
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const caller of callers) caller.abort();
    await Promise.all(abandoned);
    const again = send("a3", "family-a", LARGE);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release.shift()!();
    await until(() => started.includes("a3"));
    release.shift()!();
    expect((await Promise.all([holding, again])).map((answer) => answer.status)).toEqual([200, 200]);
    expect(started).toEqual(["a1", "a3"]);
  });
});
