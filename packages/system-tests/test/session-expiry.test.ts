import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, apiClient, eventually, expectAuditEntries, logIn, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

const IDLE_SECONDS = 2;
let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) } });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

/** A fresh session of the user, for reading the audit log after their other session expired. */
async function freshToken(email: string): Promise<string> {
  const login = await logIn(api, email);
  expect(login.status).toBe(200);
  return login.body.access_token as string;
}

describe("idle sessions", () => {
  it("stay alive while used: every request counts as activity", async () => {
    const user = await signUpUser(api, "idle-active");
    for (let i = 0; i < 5; i++) {
      await sleep(900);
      expect((await api.get("/api/v1/users/me", { token: user.accessToken })).status).toBe(200);
    }
  });

  it("expire at their next use after the idle time: 401, and auth.session.expired with that request's facts", async () => {
    await system.gateway.sessionExpiry.stop(); // so the request, not the sweep, finds the idle session
    try {
      const user = await signUpUser(api, "idle-request");
      await sleep(IDLE_SECONDS * 1000 + 600);
      const res = await api.get("/api/v1/users/me", { token: user.accessToken, headers: { "x-request-id": "idle-probe-1", "user-agent": "idle-probe" } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "unauthorized", message: "The session has expired; log in again" });
      const [entry] = await expectAuditEntries(api, await freshToken(user.email), "eventType=auth.session.expired", 1);
      expect(entry).toMatchObject({ severity: "info", user: { id: user.id }, error: "idle_timeout", requestId: "idle-probe-1", userAgent: "idle-probe" });
      expect((await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    } finally {
      system.gateway.sessionExpiry.start();
    }
  });

  it("refuse a refresh after the idle time, recording the expiry", async () => {
    await system.gateway.sessionExpiry.stop();
    try {
      const user = await signUpUser(api, "idle-refresh");
      await sleep(IDLE_SECONDS * 1000 + 600);
      const res = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
      expect(res.status).toBe(401);
      const [entry] = await expectAuditEntries(api, await freshToken(user.email), "eventType=auth.session.expired", 1);
      expect(entry).toMatchObject({ user: { id: user.id }, error: "idle_timeout" });
    } finally {
      system.gateway.sessionExpiry.start();
    }
  });

  it("are expired by the background sweep even if never used again, once each", async () => {
    const user = await signUpUser(api, "idle-sweep");
    const signupSession = await system.db.gateway.session.findFirstOrThrow({ where: { userId: user.id } });
    await eventually(
      async () => {
        const session = await system.db.gateway.session.findUniqueOrThrow({ where: { id: signupSession.id } });
        expect(session.revokedReason).toBe("idle_timeout");
      },
      { timeoutMs: 15_000 },
    );
    const entries = await expectAuditEntries(api, await freshToken(user.email), "eventType=auth.session.expired", 1);
    expect(entries[0]).toMatchObject({ sessionId: signupSession.id, requestId: null, ipAddress: null });
    // Sweeping again (as another gateway instance would) does not expire it twice.
    await system.gateway.sessionExpiry.sweep();
    const recorded = await system.db.gateway.outboxEvent.count({
      where: { payload: { path: ["sessionId"], equals: signupSession.id }, topic: "hearth.audit.auth" },
    });
    expect(recorded).toBe(2); // auth.token.issued at sign-up, auth.session.expired once
  });
});
