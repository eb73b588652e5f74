import { randomUUID } from "node:crypto";
import { AppError } from "@hearth/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabases, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { MIGRATIONS_DIR, createIdentityDb, type IdentityDb } from "../src/db";
import { createIdempotencyRepository } from "../src/idempotency/idempotency-repository";
import { createIdempotentRequests } from "../src/idempotency/idempotent-requests";

let databases: FreshDatabases<"gateway">;
let db: IdentityDb;

beforeAll(async () => {
  databases = await createMigratedDatabases(testPostgresAdminUrl(), { gateway: MIGRATIONS_DIR });
  db = createIdentityDb(databases.urls.gateway);
});
afterAll(async () => {
  await db?.$disconnect();
  await databases?.drop();
});

const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("idempotent requests (on the gateway's database)", () => {
  it("answers 503 when the run is late, lets it finish, and gives its answer to the retry (the timeout that may have committed)", async () => {
    const requests = createIdempotentRequests(createIdempotencyRepository(db), { retentionMs: 86_400_000, lockMs: 60_000, answerWithinMs: 50 });
    const key = randomUUID();
    let runs = 0;
    const slow = async () => {
      runs++;
      await until(300);
      return { status: 201, body: { id: "created-once" } };
    };
    await expect(requests.run("user:a", key, "hash", slow)).rejects.toMatchObject({ code: "service_unavailable" });
    // While it still runs, a retry is told to come back.
    await expect(requests.run("user:a", key, "hash", slow)).rejects.toMatchObject({ code: "conflict" });
    await until(400);
    expect(await requests.run("user:a", key, "hash", slow)).toEqual({ answer: { status: 201, body: { id: "created-once" } }, replayed: true });
    expect(runs).toBe(1);
  });

  it("lets a key whose run was abandoned (its gateway died) run again once its claim lapses", async () => {
    const repository = createIdempotencyRepository(db);
    const requests = createIdempotentRequests(repository, { retentionMs: 86_400_000, lockMs: 100, answerWithinMs: 1000 });
    const key = randomUUID();
    expect(await repository.claim("user:b", key, "hash", 100, 86_400_000)).toBe(true); // a run that never finishes
    await until(200);
    expect(await requests.run("user:b", key, "hash", async () => ({ status: 201, body: { ok: true } }))).toEqual({
      answer: { status: 201, body: { ok: true } },
      replayed: false,
    });
  });

  it("starts a key afresh once it is older than the retention", async () => {
    const requests = createIdempotentRequests(createIdempotencyRepository(db), { retentionMs: 100, lockMs: 1000, answerWithinMs: 1000 });
    const key = randomUUID();
    await requests.run("user:c", key, "first", async () => ({ status: 201, body: { n: 1 } }));
    await until(200);
    expect(await requests.run("user:c", key, "second", async () => ({ status: 201, body: { n: 2 } }))).toEqual({
      answer: { status: 201, body: { n: 2 } },
      replayed: false,
    });
  });

  it("stores a client error; gives the key back after a 429 or a service never reached; holds it after a failure that may have committed", async () => {
    const requests = createIdempotentRequests(createIdempotencyRepository(db), { retentionMs: 86_400_000, lockMs: 60_000, answerWithinMs: 1000 });
    const refused = randomUUID();
    await expect(requests.run("user:d", refused, "h", async () => Promise.reject(AppError.validation(["Name is bad"])))).rejects.toBeInstanceOf(AppError);
    const replay = await requests.run("user:d", refused, "h", async () => ({ status: 201, body: {} }));
    expect(replay.replayed).toBe(true);
    expect(replay.answer.status).toBe(422);

    const unreached = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4001"), { code: "ECONNREFUSED" });
    const fetchFailed = new TypeError("fetch failed", { cause: unreached });
    for (const failure of [new AppError("rate_limit_exceeded"), new AppError("service_unavailable", { cause: fetchFailed })]) {
      const key = randomUUID();
      await expect(requests.run("user:d", key, "h", async () => Promise.reject(failure))).rejects.toBe(failure);
      expect(await requests.run("user:d", key, "h", async () => ({ status: 201, body: { retried: true } }))).toMatchObject({ replayed: false });
    }

    // A timeout (or a reset, or a 5xx) may have committed: the retry must not run it again while the claim holds.
    const timedOut = randomUUID();
    await expect(requests.run("user:d", timedOut, "h", async () => Promise.reject(new AppError("service_unavailable")))).rejects.toMatchObject({
      code: "service_unavailable",
    });
    await expect(requests.run("user:d", timedOut, "h", async () => ({ status: 201, body: {} }))).rejects.toMatchObject({ code: "conflict" });
  });

  it("never runs a succeeded request again when its answer cannot be stored", async () => {
    const repository = createIdempotencyRepository(db);
    const failures: unknown[] = [];
    const requests = createIdempotentRequests(
      { ...repository, complete: async () => Promise.reject(new Error("database blip")) },
      { retentionMs: 86_400_000, lockMs: 60_000, answerWithinMs: 5000, onStoreFailed: (err) => failures.push(err) },
    );
    const key = randomUUID();
    let runs = 0;
    const create = async () => ({ status: 201, body: { run: ++runs } });
    expect((await requests.run("user:e", key, "h", create)).answer.status).toBe(201);
    expect(failures).toHaveLength(1);
    await expect(requests.run("user:e", key, "h", create)).rejects.toMatchObject({ code: "conflict" });
    expect(runs).toBe(1);
  });

  it("lets shutdown wait for a run whose answer was late, so it stores what it did", async () => {
    const requests = createIdempotentRequests(createIdempotencyRepository(db), { retentionMs: 86_400_000, lockMs: 60_000, answerWithinMs: 20 });
    const key = randomUUID();
    const slow = async () => {
      await until(200);
      return { status: 201, body: { stored: true } };
    };
    await expect(requests.run("user:f", key, "h", slow)).rejects.toMatchObject({ code: "service_unavailable" });
    await requests.drain(5000);
    expect(await requests.run("user:f", key, "h", slow)).toEqual({ answer: { status: 201, body: { stored: true } }, replayed: true });
  });
});
