import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

describe("gateway basics", () => {
  it("answers /health, /ready (its own database) and /health/dependencies with everything up", async () => {
    expect((await api.get("/health")).status).toBe(200);
    const ready = await api.get("/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready", checks: { database: true } });
    const dependencies = await api.get("/health/dependencies");
    expect(dependencies.status).toBe(200);
    expect(dependencies.body.status).toBe("ok");
    for (const service of ["finance", "chat", "notifications", "audit"]) {
      expect(dependencies.body.dependencies[service]).toEqual({ status: "up", latency_ms: expect.any(Number) });
    }
  });

  it("stays ready when one service is down (it would take the whole API out of a load balancer), and reports that service", async () => {
    await system.services.chat.stop();
    try {
      const ready = await api.get("/ready");
      expect(ready.status).toBe(200);
      // The report is cached for a few seconds, however often it is asked: wait for the next probe.
      const dependencies = await eventually(
        async () => {
          const res = await api.get("/health/dependencies");
          if (res.body.status !== "degraded") throw new Error("not degraded yet");
          return res;
        },
        { timeoutMs: 15_000 },
      );
      expect(dependencies.status).toBe(200);
      expect(dependencies.body.dependencies.chat.status).toBe("down");
      expect(dependencies.body.dependencies.finance.status).toBe("up");
    } finally {
      await system.services.chat.start();
    }
  });

  it("echoes a given X-Request-Id and makes one up otherwise", async () => {
    const given = await api.get("/health", { headers: { "x-request-id": "req-abc-123" } });
    expect(given.headers.get("x-request-id")).toBe("req-abc-123");
    const made = await api.get("/health");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown routes 404 with the error body", async () => {
    const res = await api.get("/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: expect.any(String) });
  });

  it("answers malformed JSON 400 with the error body", async () => {
    const res = await api.request("POST", "/api/v1/auth/login", { rawBody: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_request", message: expect.any(String) });
  });

  it("refuses bodies over the size limit with 413", async () => {
    const res = await api.post("/api/v1/auth/login", { email: "a@b.co", password: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
  });

  it("refuses non-JSON bodies with 415", async () => {
    const res = await api.request("POST", "/api/v1/auth/login", { rawBody: "email=a", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("unsupported_media_type");
  });

  it("accepts a bodiless POST without a Content-Type (it is not a non-JSON body)", async () => {
    const res = await fetch(`${system.url}/api/v1/auth/logout`, { method: "POST" });
    expect(res.status).toBe(401);
  });

  it("answers 400, not 500, for a path it cannot decode or a body that does not inflate", async () => {
    const user = await signUpUser(api, "garbled");
    const badPath = await api.get("/api/v1/tags/%E0%A4%A", { apiKey: user.readKey });
    expect(badPath.status).toBe(400);
    expect(badPath.body.error).toBe("bad_request");
    const badGzip = await api.request("POST", "/api/v1/tags", { rawBody: "not gzip", apiKey: user.writeKey, headers: { "content-encoding": "gzip" } });
    expect(badGzip.status).toBe(400);
    expect(badGzip.body.error).toBe("bad_request");
  });

  it("sets helmet's security headers", async () => {
    const res = await api.get("/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  it("serves the OpenAPI 3.1 document built from the route table, and a docs page", async () => {
    const doc = await api.get("/api/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/tags",
        "/api/v1/tags/{id}",
        "/api/v1/merchants",
        "/api/v1/chats",
        "/api/v1/push_subscriptions",
        "/api/v1/audit-logs",
        "/api/v1/api_keys/{id}",
      ]),
    );
    const page = await fetch(`${system.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("swagger");
  });

  // Last: the gateway stays draining until the file's system stops.
  it("accepts the README's signup command as written (was: its device type, cli, is not one Sure allows, so it answered 400)", async () => {
    const readme = await readFile(new URL("../../../README.md", import.meta.url), "utf8");
    const command = /curl -X POST http:\/\/localhost:3000\/api\/v1\/auth\/signup[^]*?-d '([^']+)'/.exec(readme);
    expect(command, "the README shows a signup command").not.toBeNull();
    const body = JSON.parse(command![1]!) as { user: { email: string } };
    body.user.email = `readme-${Date.now()}@hearth.example`;
    const answer = await api.post("/api/v1/auth/signup", body);
    expect(answer.status).toBe(201);
    expect(answer.body.access_token).toEqual(expect.any(String));
  });

  it("answers /ready 503 draining once shutdown begins, while it still serves requests", async () => {
    system.gateway.drain();
    const ready = await api.get("/ready");
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe("draining");
    expect((await api.get("/health")).status).toBe(200);
    expect((await api.get("/api/v1/nothing-here")).status).toBe(404);
  });
});
