import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { AppError, type Actor } from "@hearth/contracts";
import { createLogger, listen, metricSample, type RunningServer, type ServiceCall } from "@hearth/service-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayApp, type GatewayAppDeps } from "../src/http/app";
import { UNMATCHED_ROUTE } from "../src/http/metrics";

const TOKEN = "gateway-metrics-token-0123456789abcdefghij";
const API_KEY = "good-key";
const actor: Actor = {
  userId: randomUUID(),
  familyId: randomUUID(),
  role: "admin",
  scopes: ["read", "read_write"],
  authMethod: "api_key",
  apiKeyId: randomUUID(),
};
const tagId = randomUUID();

/** The gateway app with the routes' collaborators stubbed: one API key, a finance service that knows one tag. */
function gatewayApp(metricsToken: string | undefined) {
  const finance: ServiceCall = async (procedure, _kind, input) => {
    if (procedure === "tags.get" && (input as { id: string }).id === tagId) {
      return { id: tagId, name: "Groceries", color: "#e99537", created_at: new Date().toISOString(), updated_at: new Date().toISOString() };
    }
    throw AppError.notFound("Tag");
  };
  const usage = { limit: 1000, current: 1, remaining: 999, resetInSeconds: 60, resetAt: new Date(Date.now() + 60_000) };
  const deps = {
    log: createLogger("gateway-test", "silent"),
    bodyLimit: "1mb",
    trustProxy: 0,
    readiness: { check: async () => ({ ready: true, body: { status: "ready" } }), drain: () => {} },
    dependencies: async () => ({ status: "ok", services: {} }),
    authenticate: async ({ apiKey }: { apiKey: string | undefined }) => {
      if (apiKey !== API_KEY) throw new AppError("unauthorized");
      return actor;
    },
    local: {},
    services: { finance, chat: finance, notifications: finance, audit: finance },
    patientServices: { finance, chat: finance, notifications: finance, audit: finance },
    rateLimiter: { consume: async () => usage },
    idempotency: {},
    actorStanding: { internalAuthSecret: "metrics-test-internal-secret-0123456789", standingOf: async () => ({ granted: true }) },
    metricsToken,
  } as unknown as GatewayAppDeps;
  return createGatewayApp(deps);
}

let guarded: RunningServer;
let closed: RunningServer;

beforeAll(async () => {
  guarded = await listen(createServer(gatewayApp(TOKEN)), 0);
  closed = await listen(createServer(gatewayApp(undefined)), 0);
});
afterAll(async () => {
  await guarded.close();
  await closed.close();
});

const scrape = async () => {
  const response = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
};

describe("the gateway's /metrics", () => {
  it("answers 404 with the error body when no METRICS_TOKEN is configured, whatever is presented", async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await fetch(`${closed.url}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "not_found", message: "No route matches GET /metrics" });
    }
  });

  it("with a token: 401 with the error body unless it is presented as a bearer token, then Prometheus' text format", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const response = await fetch(`${guarded.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await response.json()).toEqual({ error: "unauthorized", message: "A valid metrics token is required" });
    }
    // No API key needed, and no rate-limit headers: it is not an API route.
    const response = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    const text = await response.text();
    expect(text).toContain("# TYPE http_requests counter");
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(text).toContain("nodejs_eventloop_lag_p99_seconds");
  });
});

describe("RED per route", () => {
  it("labels requests by route template, method and status, and observes their duration", async () => {
    const before = await scrape();
    const tag = { method: "GET", route: "/api/v1/tags/:id" };
    expect((await fetch(`${guarded.url}/api/v1/tags/${tagId}`, { headers: { "x-api-key": API_KEY } })).status).toBe(200);
    expect((await fetch(`${guarded.url}/api/v1/tags/${tagId}`, { headers: { "x-api-key": API_KEY } })).status).toBe(200);
    expect((await fetch(`${guarded.url}/api/v1/tags/${randomUUID()}`, { headers: { "x-api-key": API_KEY } })).status).toBe(404);
    expect((await fetch(`${guarded.url}/api/v1/tags/${randomUUID()}`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/no/such/${randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${guarded.url}/health`)).status).toBe(200);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => (metricSample(after, name, labels) ?? 0) - (metricSample(before, name, labels) ?? 0);
    expect(moved("http_requests_total", { ...tag, status: "200" })).toBe(2);
    expect(moved("http_requests_total", { ...tag, status: "404" })).toBe(1);
    expect(moved("http_requests_total", { ...tag, status: "401" })).toBe(1);
    expect(moved("http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "404" })).toBe(1);
    expect(moved("http_requests_total", { method: "GET", route: "/health", status: "200" })).toBe(1);
    expect(moved("http_request_duration_seconds_count", tag)).toBe(4);
    expect(moved("http_request_duration_seconds_bucket", { ...tag, le: "+Inf" })).toBe(4);
    expect(metricSample(after, "http_request_duration_seconds_sum", tag)).toBeGreaterThan(0);
    // Never a raw URL as a label, and the scrapes themselves are not counted.
    expect(after).not.toContain(tagId);
    expect(after).not.toMatch(/route="\/metrics"/);
    expect(moved("http_requests_total", { route: UNMATCHED_ROUTE, status: "200" })).toBe(0);
  });
});
