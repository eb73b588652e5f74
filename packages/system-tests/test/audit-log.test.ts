import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLogListSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  DEVICE,
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  changeCredentialsDirectly,
  eventually,
  expectAuditEntries,
  logIn,
  pendingOutboxCount,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
  type TestUser,
} from "../src";

// Without KAFKA_BROKERS the gateway's outbox relay delivers straight to the audit service.
let system: TestSystem;
let api: ApiClient;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  // No refresh grace window: a spent token presented again is a reuse at once (sure-mobile-app.test.ts has the window).
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { REFRESH_REUSE_GRACE_SECONDS: "0" } });
  api = apiClient(system.url);
  expect(system.gateway.publisherName).toBe("audit-service");
  alice = await signUpUser(api, "alice");
  bob = await signUpUser(api, "bob");
});
afterAll(async () => system?.stop());

describe("auth events in the audit log (direct path)", () => {
  it("records a successful login with severity, IP, user agent and request id", async () => {
    const login = await api.post(
      "/api/v1/auth/login",
      // Another device: a login on DEVICE would end the sign-up's session, which the tests read with and refresh.
      { email: alice.email, password: "Correct-horse-9", device: SECOND_DEVICE },
      { headers: { "x-request-id": "login-req-1", "user-agent": "HearthTest/1.0" } },
    );
    expect(login.status).toBe(200);
    const [entry] = await expectAuditEntries(api, alice.accessToken, "eventType=auth.login.success", 1);
    expect(AuditLogListSchema.parse([entry])).toHaveLength(1);
    expect(entry).toMatchObject({
      eventType: "auth.login.success",
      severity: "info",
      user: { id: alice.id, email: alice.email },
      requestId: "login-req-1",
      userAgent: "HearthTest/1.0",
      ipAddress: expect.stringMatching(/127\.0\.0\.1|::1/),
      error: null,
    });
    // The same login also issued a token.
    const issued = await expectAuditEntries(api, alice.accessToken, "eventType=auth.token.issued&limit=100", 2);
    expect(issued.map((e) => e.requestId)).toContain("login-req-1");
  });

  it("records a failed login as a warning with the reason, without telling the client", async () => {
    const failed = await logIn(api, alice.email, "Wrong-password-1");
    expect(failed.status).toBe(401);
    const [entry] = await expectAuditEntries(api, alice.accessToken, "eventType=auth.login.failed", 1);
    expect(entry).toMatchObject({ severity: "warning", user: { id: alice.id }, error: "invalid_password" });
  });

  it("records a token refresh", async () => {
    const refreshed = await api.post("/api/v1/auth/refresh", { refresh_token: alice.refreshToken, device: { device_id: DEVICE.device_id } });
    expect(refreshed.status).toBe(200);
    await expectAuditEntries(api, alice.accessToken, "eventType=auth.token.refreshed", 1);
  });

  it("records a logout, and a refresh token reuse as a revoked session (warning)", async () => {
    const user = await signUpUser(api, "session-events");
    const rotated = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    const fresh = await logIn(api, user.email);
    expect((await api.post("/api/v1/auth/logout", undefined, { token: fresh.body.access_token, headers: { "x-request-id": "logout-req" } })).status).toBe(204);

    const admin = (await logIn(api, user.email)).body.access_token as string;
    const [revoked] = await expectAuditEntries(api, admin, `eventType=auth.token.revoked&userId=${user.id}`, 1);
    expect(revoked).toMatchObject({ severity: "warning", error: "refresh_token_reuse", user: { id: user.id } });
    const session = await system.db.gateway.session.findFirstOrThrow({
      where: { refreshTokens: { some: { tokenHash: { not: "" } } }, userId: user.id, revokedReason: "refresh_token_reuse" },
    });
    expect(revoked?.sessionId).toBe(session.id);
    expect(rotated.status).toBe(200);
    const [logout] = await expectAuditEntries(api, admin, `eventType=auth.logout&userId=${user.id}`, 1);
    expect(logout).toMatchObject({ severity: "info", requestId: "logout-req", user: { id: user.id, email: user.email } });
  });

  it("lists newest first and filters by user, dates, limit and offset", async () => {
    const all = await api.get("/api/v1/audit-logs?limit=100", { token: alice.accessToken });
    const times = all.body.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const page = await api.get("/api/v1/audit-logs?limit=2&offset=1", { token: alice.accessToken });
    expect(page.body.map((e: { id: string }) => e.id)).toEqual(all.body.slice(1, 3).map((e: { id: string }) => e.id));

    const byUser = await api.get(`/api/v1/audit-logs?userId=${alice.id}&limit=100`, { token: alice.accessToken });
    expect(byUser.body.length).toBe(all.body.length);
    expect((await api.get(`/api/v1/audit-logs?userId=${bob.id}`, { token: alice.accessToken })).body).toEqual([]);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api.get(`/api/v1/audit-logs?startDate=${encodeURIComponent(future)}`, { token: alice.accessToken })).body).toEqual([]);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect(
      (await api.get(`/api/v1/audit-logs?startDate=${encodeURIComponent(past)}&endDate=${encodeURIComponent(future)}&limit=100`, { token: alice.accessToken }))
        .body.length,
    ).toBe(all.body.length);
    expect((await api.get("/api/v1/audit-logs?provider=google", { token: alice.accessToken })).body).toEqual([]);
  });

  it("refuses bad filters with 422 validation_failed (every list's bad filter, as Sure's controllers answer it)", async () => {
    for (const query of [
      "limit=101",
      "limit=0",
      "offset=-1",
      "startDate=yesterday",
      "eventType=auth.nope",
      "userId=abc",
      "startDate=2026-02-01T00:00:00Z&endDate=2026-01-01T00:00:00Z",
    ]) {
      const res = await api.get(`/api/v1/audit-logs?${query}`, { token: alice.accessToken });
      expect(res.status, query).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
  });

  it("shows an admin only their own family's users", async () => {
    await expectAuditEntries(api, bob.accessToken, `userId=${alice.id}`, 0);
    const bobs = await api.get("/api/v1/audit-logs?limit=100", { token: bob.accessToken });
    expect(bobs.body.every((e: { user: { id: string } | null }) => e.user?.id === bob.id)).toBe(true);
  });

  it("includes the events of other users of the same family", async () => {
    // A second user joins Alice's family as a member (invitations come in a later issue).
    const carol = await signUpUser(api, "carol");
    const membership = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: alice.id } });
    await changeCredentialsDirectly(system.db.gateway, carol.id, (tx) =>
      tx.membership.update({ where: { userId: carol.id }, data: { familyId: membership.familyId, role: "member" } }),
    );
    expect((await logIn(api, carol.email)).status).toBe(200);
    const [entry] = await expectAuditEntries(api, alice.accessToken, `userId=${carol.id}&eventType=auth.login.success`, 1);
    expect(entry?.user?.email).toBe(carol.email);

    // ...and a member is not an admin: 403 for the audit log.
    const carolLogin = await logIn(api, carol.email);
    const denied = await api.get("/api/v1/audit-logs", { token: carolLogin.body.access_token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("forbidden");
  });

  it("needs a bearer token: an admin's API key gets 403, no credential 401", async () => {
    expect((await api.get("/api/v1/audit-logs", { apiKey: alice.readKey })).status).toBe(403);
    expect((await api.get("/api/v1/audit-logs")).status).toBe(401);
  });
});

describe("nothing lost, nothing twice (direct path)", () => {
  it("delays events while the audit service is down and delivers each once when it is back", async () => {
    const user = await signUpUser(api, "outage");
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);

    await system.services.audit.stop();
    try {
      for (let i = 0; i < 3; i++) expect((await logIn(api, user.email, TEST_PASSWORD, SECOND_DEVICE)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await pendingOutboxCount(system)).toBeGreaterThanOrEqual(6);
    } finally {
      await system.services.audit.start();
    }
    system.gateway.relay.poke();
    await expectAuditEntries(api, user.accessToken, "eventType=auth.login.success", 3);
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 4);
    // Marked delivered once the audit service has answered: a moment after the entries are there.
    await eventually(async () => expect(await pendingOutboxCount(system)).toBe(0));
  });

  it("stores a re-delivered event once (unique event id)", async () => {
    const user = await signUpUser(api, "redeliver");
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);
    const before = await system.db.audit.auditLogEntry.count();
    // Simulate a relay that crashed after publishing but before marking: everything is sent again.
    await system.db.gateway.outboxEvent.updateMany({ data: { publishedAt: null } });
    system.gateway.relay.poke();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect.poll(() => pendingOutboxCount(system), { timeout: 20_000 }).toBe(0);
    expect(await system.db.audit.auditLogEntry.count()).toBe(before);
  });
});
