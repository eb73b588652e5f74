import { createServer } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiKeyUsageSchema } from "@hearth/contracts";
import { createGateway } from "@hearth/gateway/gateway";
import { createLogger, listen } from "@hearth/service-kit";
import { testPostgresAdminUrl, testRedisUrl } from "@hearth/test-kit";
import { apiClient, clearOfWindowEdge, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

const LIMIT = 50;
const WINDOW_SECONDS = 3600;
let system: TestSystem;
let api: ApiClient;
let second: { api: ApiClient; stop: () => Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    // Instances share their counts through Redis, which runs beside PostgreSQL wherever the tests run.
    gatewayEnv: { RATE_LIMIT_REQUESTS: String(LIMIT), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS), REDIS_URL: testRedisUrl() },
  });
  api = apiClient(system.url);
  // A second gateway instance on the same identity database, as behind a load balancer.
  const gateway = await createGateway({ config: system.config, db: system.db.gateway, log: createLogger("gateway-2", "silent") });
  await gateway.start();
  const server = await listen(createServer(gateway.app), 0);
  second = { api: apiClient(server.url), stop: async () => (await gateway.stop(), await server.close()) };
});
afterAll(async () => {
  await second?.stop();
  await system?.stop();
});

describe("GET /api/v1/usage", () => {
  beforeEach(() => clearOfWindowEdge(WINDOW_SECONDS));

  it("answers the API key and its real rate-limit count, the asking request included", async () => {
    const user = await signUpUser(api, "usage");
    for (let i = 0; i < 3; i++) expect((await api.get("/api/v1/users/me", { apiKey: user.readKey })).status).toBe(200);

    const before = Date.now();
    const res = await api.get("/api/v1/usage", { apiKey: user.readKey });
    expect(res.status).toBe(200);
    const usage = ApiKeyUsageSchema.parse(res.body);
    expect(usage.api_key).toEqual({ name: "read key", scopes: ["read"], last_used_at: expect.any(String), created_at: expect.any(String) });
    expect(Date.parse(usage.api_key.last_used_at!)).toBeGreaterThanOrEqual(Date.parse(usage.api_key.created_at));
    expect(usage.rate_limit).toMatchObject({ tier: "standard", limit: LIMIT, current_count: 4, remaining: LIMIT - 4 });
    // The same numbers the limiter put in this answer's headers.
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(usage.rate_limit.remaining));
    expect(res.headers.get("x-ratelimit-reset")).toBe(String(usage.rate_limit.reset_in_seconds));
    expect(usage.rate_limit.reset_in_seconds).toBeGreaterThan(0);
    expect(usage.rate_limit.reset_in_seconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    // reset_at is the end of the window: a whole multiple of it, reset_in_seconds from now.
    const resetAt = Date.parse(usage.rate_limit.reset_at);
    expect(resetAt % (WINDOW_SECONDS * 1000)).toBe(0);
    expect(Math.abs(resetAt - (before + usage.rate_limit.reset_in_seconds * 1000))).toBeLessThan(2000);

    // Asking again counts once more and nothing twice, after the limiter's periodic write too.
    await sleep(500);
    const again = ApiKeyUsageSchema.parse((await api.get("/api/v1/usage", { apiKey: user.readKey })).body);
    expect(again.rate_limit).toMatchObject({ current_count: 5, remaining: LIMIT - 5 });
  });

  it("counts each API key apart", async () => {
    const user = await signUpUser(api, "usage-keys");
    await api.get("/api/v1/users/me", { apiKey: user.readKey });
    const res = await api.get("/api/v1/usage", { apiKey: user.writeKey });
    expect(res.status).toBe(200);
    expect(ApiKeyUsageSchema.parse(res.body)).toMatchObject({
      api_key: { name: "read_write key", scopes: ["read_write"] },
      rate_limit: { current_count: 1, remaining: LIMIT - 1 },
    });
  });

  it("reports the count shared by every gateway instance", async () => {
    const user = await signUpUser(api, "usage-shared");
    for (let i = 0; i < 3; i++) await api.get("/api/v1/users/me", { apiKey: user.readKey });
    await sleep(500); // the first instance writes its local count to PostgreSQL every 200 ms
    const res = await second.api.get("/api/v1/usage", { apiKey: user.readKey });
    expect(ApiKeyUsageSchema.parse(res.body).rate_limit).toMatchObject({ current_count: 4, remaining: LIMIT - 4 });
  });

  it("answers a bearer token with Sure's OAuth notice", async () => {
    const user = await signUpUser(api, "usage-bearer");
    const res = await api.get("/api/v1/usage", { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authentication_method: "oauth", message: "Detailed usage tracking is available for API key authentication" });
  });

  it("is 401 without a credential, or with a revoked key", async () => {
    const none = await api.get("/api/v1/usage");
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("unauthorized");

    const user = await signUpUser(api, "usage-revoked");
    const keys = await api.get("/api/v1/api_keys", { token: user.accessToken });
    const readKey = (keys.body.api_keys as { id: string; scopes: string[] }[]).find((key) => key.scopes[0] === "read");
    expect((await api.delete(`/api/v1/api_keys/${readKey!.id}`, { token: user.accessToken })).status).toBe(204);
    const revoked = await api.get("/api/v1/usage", { apiKey: user.readKey });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe("unauthorized");
  });
});
