import { createServer } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGateway } from "@hearth/gateway/gateway";
import { createLogger, listen, type RunningServer } from "@hearth/service-kit";
import { testPostgresAdminUrl, testRedisUrl } from "@hearth/test-kit";
import { apiClient, clearOfWindowEdge, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

const LIMIT = 5;
/** The bearer tokens' budget (SESSION_RATE_LIMIT_REQUESTS), apart from the API keys'. */
const SESSION_LIMIT = 8;
/** Every key and session of a family together (FAMILY_RATE_LIMIT_REQUESTS). */
const FAMILY_LIMIT = 20;
const WINDOW_SECONDS = 3600;
let system: TestSystem;
let api: ApiClient;
let second: { api: ApiClient; server: RunningServer; stop: () => Promise<void> };

beforeAll(async () => {
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    // Instances share their counts through Redis, which runs beside PostgreSQL wherever the tests run.
    gatewayEnv: {
      RATE_LIMIT_REQUESTS: String(LIMIT),
      SESSION_RATE_LIMIT_REQUESTS: String(SESSION_LIMIT),
      FAMILY_RATE_LIMIT_REQUESTS: String(FAMILY_LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      REDIS_URL: testRedisUrl(),
    },
  });
  api = apiClient(system.url);
  // A second gateway instance on the same identity database, as behind a load balancer.
  const gateway = await createGateway({ config: system.config, db: system.db.gateway, log: createLogger("gateway-2", "silent") });
  await gateway.start();
  const server = await listen(createServer(gateway.app), 0);
  second = { api: apiClient(server.url), server, stop: async () => (await gateway.stop(), await server.close()) };
});
afterAll(async () => {
  await second?.stop();
  await system?.stop();
});

describe("rate limiting per credential", () => {
  beforeEach(() => clearOfWindowEdge(WINDOW_SECONDS));

  it("reports the limit on every answer and refuses the request past it with 429", async () => {
    const user = await signUpUser(api, "limited"); // 2 bearer requests to create its keys
    for (let i = 1; i <= LIMIT; i++) {
      const res = await api.get("/api/v1/tags", { apiKey: user.readKey });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - i));
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    }
    const refused = await api.get("/api/v1/tags", { apiKey: user.readKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "rate_limit_exceeded",
      message: expect.stringMatching(/Rate limit exceeded/),
      details: { limit: LIMIT, current: LIMIT + 1 },
    });
    expect(refused.body.details.reset_in_seconds).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBe(refused.body.details.reset_in_seconds);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("counts each API key apart, and a user's bearer tokens together", async () => {
    const user = await signUpUser(api, "separate");
    for (let i = 0; i < LIMIT; i++) await api.get("/api/v1/tags", { apiKey: user.readKey });
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(429);
    expect((await api.get("/api/v1/tags", { apiKey: user.writeKey })).status).toBe(200);
    // The two key creations in signUpUser used 2 of the bearer budget, which is the sessions' own.
    const statuses: number[] = [];
    const limits = new Set<string | null>();
    for (let i = 0; i < SESSION_LIMIT - 1; i++) {
      const res = await api.get("/api/v1/tags", { token: user.accessToken });
      statuses.push(res.status);
      limits.add(res.headers.get("x-ratelimit-limit"));
    }
    expect(statuses).toEqual([...Array<number>(SESSION_LIMIT - 2).fill(200), 429]);
    expect([...limits]).toEqual([String(SESSION_LIMIT)]);
  });

  it("bounds a family's keys and sessions together: more keys buy no more requests", async () => {
    const user = await signUpUser(api, "family"); // 2 bearer requests: the family's count is 2
    const third = await api.post("/api/v1/api_keys", { api_key: { name: "third", scopes: ["read"] } }, { token: user.accessToken });
    expect(third.status).toBe(201); // 3
    for (const apiKey of [user.readKey, user.writeKey, third.body.key as string]) {
      for (let i = 0; i < LIMIT; i++) expect((await api.get("/api/v1/tags", { apiKey })).status).toBe(200);
    } // 18
    const last = await api.get("/api/v1/tags", { token: user.accessToken }); // 19
    expect(last.status).toBe(200);
    // The headers tell of the family's limit once it has less left than the credential's.
    expect([last.headers.get("x-ratelimit-limit"), last.headers.get("x-ratelimit-remaining")]).toEqual([String(FAMILY_LIMIT), "1"]);
    expect((await api.get("/api/v1/tags", { token: user.accessToken })).status).toBe(200); // 20
    const refused = await api.get("/api/v1/tags", { token: user.accessToken });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "rate_limit_exceeded",
      message: expect.stringMatching(/^Your family's rate limit \(all its keys and sessions together\) exceeded\. Try again in \d+ seconds\.$/),
      details: { limit: FAMILY_LIMIT, current: FAMILY_LIMIT + 1 },
    });
    // Another family is not held back.
    const other = await signUpUser(api, "other-family");
    expect((await api.get("/api/v1/tags", { apiKey: other.readKey })).status).toBe(200);
  });

  it("is one limit across gateway instances", async () => {
    const user = await signUpUser(api, "shared");
    const answers: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) answers.push((await (i % 2 === 0 ? api : second.api).get("/api/v1/tags", { apiKey: user.readKey })).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("does not count the public identity routes", async () => {
    const res = await api.post("/api/v1/auth/login", {
      email: "nobody@example.com",
      password: "x",
      device: { device_id: "d", device_name: "n", device_type: "t", os_version: "1", app_version: "1" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
