import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let alice: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  alice = await signUpUser(api, "idem");
});
afterAll(async () => system?.stop());

const createTag = (name: string, key: string, apiKey = alice.writeKey) =>
  api.post("/api/v1/tags", { tag: { name } }, { apiKey, headers: { "idempotency-key": key } });

async function tagNames(apiKey = alice.readKey): Promise<string[]> {
  const list = await api.get<{ name: string }[]>("/api/v1/tags", { apiKey });
  return list.body.map((tag) => tag.name);
}

describe("Idempotency-Key on creating requests", () => {
  it("answers a retry with the first answer and creates once", async () => {
    const key = randomUUID();
    const first = await createTag("Retried", key);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await createTag("Retried", key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await tagNames()).filter((name) => name === "Retried")).toHaveLength(1);
  });

  it("creates exactly once when 20 retries race, each getting the answer or a 409 to retry", async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createTag("Raced", key)));
    const created = answers.filter((res) => res.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((res) => (res.body as { id: string }).id)).size).toBe(1);
    for (const res of answers.filter((res) => res.status !== 201)) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "conflict", message: expect.stringContaining("still being processed") });
    }
    expect((await tagNames()).filter((name) => name === "Raced")).toHaveLength(1);
  });

  it("refuses the same key with a different request (409), and keeps keys per credential", async () => {
    const key = randomUUID();
    expect((await createTag("One", key)).status).toBe(201);
    const other = await createTag("Two", key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: "conflict", message: expect.stringContaining("different request") });
    // Another API key of the same user is another credential: its key space is its own.
    const secondKey = await api.post<{ key: string }>(
      "/api/v1/api_keys",
      { api_key: { name: "second", scopes: ["read_write"] } },
      { token: alice.accessToken },
    );
    expect((await createTag("Two", key, secondKey.body.key)).status).toBe(201);
  });

  it("replays a client error the first request got, as it got it", async () => {
    await createTag("Taken", randomUUID());
    const key = randomUUID();
    const first = await createTag("Taken", key);
    expect(first.status).toBe(422);
    const again = await createTag("Taken", key);
    expect(again.status).toBe(422);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("gives the key back when the service was unavailable, so the retry runs", async () => {
    const key = randomUUID();
    await system.services.finance.stop();
    try {
      expect((await createTag("After outage", key)).status).toBe(503);
    } finally {
      await system.services.finance.start();
    }
    const retry = await createTag("After outage", key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });

  it("refuses a malformed key with 400 and creates nothing", async () => {
    for (const key of ["x".repeat(256), "with space"]) {
      const res = await createTag("Malformed key", key);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "bad_request", message: expect.stringContaining("Idempotency-Key") });
    }
    expect(await tagNames()).not.toContain("Malformed key");
  });

  it("leaves the gateway's own POSTs alone: an API key's secret is never stored for replay", async () => {
    const key = randomUUID();
    const create = () =>
      api.post<{ key: string }>(
        "/api/v1/api_keys",
        { api_key: { name: "twice", scopes: ["read"] } },
        { token: alice.accessToken, headers: { "idempotency-key": key } },
      );
    const first = await create();
    const second = await create();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.key).not.toBe(first.body.key);
    const stored = await system.db.gateway.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = ${key}`;
    expect(stored[0]?.n).toBe(0);
  });
});
