import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  DEVICE,
  SECOND_DEVICE,
  TEST_PASSWORD,
  answersWithinOneSecond,
  apiClient,
  racingRefreshes,
  changeCredentialsDirectly,
  logIn,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
} from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  // More sign-ups from this one address than the default signup throttle allows an hour.
  // No grace window: these cases are reuse detection itself (sure-mobile-app.test.ts has the window).
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { SIGNUP_RATE_LIMIT_REQUESTS: "1000", REFRESH_REUSE_GRACE_SECONDS: "0" } });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

describe("signup", () => {
  it("creates the user and a new family whose first user is admin, with tokens", async () => {
    const res = await api.post("/api/v1/auth/signup", {
      user: { email: "  New.Person@Example.com ", password: TEST_PASSWORD, first_name: "New", last_name: "Person" },
      device: DEVICE,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      user: { email: "new.person@example.com", first_name: "New", last_name: "Person", ui_layout: "dashboard", ai_enabled: false },
    });
    const membership = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: res.body.user.id } });
    expect(membership.role).toBe("admin");
    const user = await system.db.gateway.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it("refuses a taken email with 422", async () => {
    const user = await signUpUser(api, "taken");
    const res = await api.post("/api/v1/auth/signup", { user: { email: user.email.toUpperCase(), password: TEST_PASSWORD }, device: DEVICE });
    expect(res.status).toBe(422);
    // The sentence in `error`, as Sure's mobile app reads it; the code in `code`.
    expect(res.body).toMatchObject({ error: "Email has already been taken", code: "validation_failed", errors: ["Email has already been taken"] });
  });

  it("refuses a weak password and a bad email with every message", async () => {
    const res = await api.post("/api/v1/auth/signup", { user: { email: "not-an-email", password: "short" }, device: DEVICE });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.stringContaining("Email"), expect.stringContaining("at least 8 characters")]));
    expect(res.body.error).toBe((res.body.errors as string[]).join(", "));
  });

  // Sure's "should not signup without device info": 400, not the 422 of body validation.
  it("refuses a missing device with 400 'Device information is required'", async () => {
    const res = await api.post("/api/v1/auth/signup", { user: { email: "nodevice@example.com", password: TEST_PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "Device information is required", code: "bad_request" });
  });
});

describe("login", () => {
  it("answers tokens and the user for the right password", async () => {
    const user = await signUpUser(api, "login");
    const res = await logIn(api, user.email);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", user: { id: user.id, email: user.email } });
    expect((await api.get("/api/v1/tags", { token: res.body.access_token })).status).toBe(200);
  });

  it("answers the same 401 for a wrong password and an unknown email", async () => {
    const user = await signUpUser(api, "wrongpw");
    const wrong = await logIn(api, user.email, "Wrong-password-1");
    const unknown = await logIn(api, "nobody@example.com");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toMatchObject({ error: "Invalid email or password", message: "Invalid email or password", code: "unauthorized" });
  });
});

describe("refresh", () => {
  it("answers a missing or blank refresh token 400, as Sure does", async () => {
    for (const body of [{ device: { device_id: DEVICE.device_id } }, { refresh_token: " ", device: { device_id: DEVICE.device_id } }]) {
      const res = await api.post("/api/v1/auth/refresh", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "Refresh token is required", message: "Refresh token is required", code: "bad_request" });
    }
  });

  it("rotates the refresh token: each one works once, and the new pair continues the session", async () => {
    const user = await signUpUser(api, "refresh");
    const first = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(user.refreshToken);
    expect((await api.get("/api/v1/tags", { token: first.body.access_token })).status).toBe(200);
    const second = await api.post("/api/v1/auth/refresh", { refresh_token: first.body.refresh_token, device: { device_id: DEVICE.device_id } });
    expect(second.status).toBe(200);
    // Still one session, with three tokens in its chain.
    const sessions = await system.db.gateway.session.findMany({ where: { userId: user.id }, include: { refreshTokens: true } });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.refreshTokens).toHaveLength(3);
  });

  it("treats a spent refresh token presented again as stolen: the whole session ends", async () => {
    const user = await signUpUser(api, "reuse");
    const rotated = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expect(rotated.status).toBe(200);

    const replay = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: "Invalid refresh token", message: "Invalid refresh token", code: "unauthorized" });

    // The legitimate holder's newer tokens are gone too: whoever has them must log in again.
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: rotated.body.refresh_token, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    expect((await api.get("/api/v1/tags", { token: rotated.body.access_token })).status).toBe(401);
    expect((await api.get("/api/v1/tags", { token: user.accessToken })).status).toBe(401);
    // API keys are not sessions: they keep working.
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    const session = await system.db.gateway.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(session.revokedReason).toBe("refresh_token_reuse");
  });

  it("lets one of 10 parallel refreshes of the same token win, and then ends the session (a race is a reuse too)", async () => {
    const user = await signUpUser(api, "reuse-race");
    const refresh = () => api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    // Certain: all ten have read the token as live and wait to spend it; then one spends it and nine lose.
    const answers = await racingRefreshes(system.config.DATABASE_URL, user.refreshToken, 10, refresh);
    const winners = answers.filter((res) => res.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((res) => res.status === 401)).toHaveLength(9);
    const winner = winners[0]?.body as { refresh_token: string; access_token: string };
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: winner.refresh_token, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    expect((await api.get("/api/v1/tags", { token: winner.access_token })).status).toBe(401);
    const session = await system.db.gateway.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(session.revokedReason).toBe("refresh_token_reuse");
  });

  it("ends the session when a spent refresh token comes back, whatever device it claims", async () => {
    const user = await signUpUser(api, "reuse-device");
    const rotated = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expect(rotated.status).toBe(200);
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: "someone-else" } })).status).toBe(401);
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: rotated.body.refresh_token, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    const session = await system.db.gateway.session.findFirstOrThrow({ where: { userId: user.id } });
    expect(session.revokedReason).toBe("refresh_token_reuse");
  });

  it("refuses a refresh token presented from another device", async () => {
    const user = await signUpUser(api, "device");
    const res = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: "someone-else" } });
    expect(res.status).toBe(401);
  });
});

describe("the user's own record", () => {
  it("answers GET /api/v1/users/me with Sure's user fields, by API key or bearer token", async () => {
    const user = await signUpUser(api, "me");
    for (const credentials of [{ apiKey: user.readKey }, { token: user.accessToken }]) {
      const res = await api.get("/api/v1/users/me", credentials);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: { id: user.id, email: user.email, first_name: "Test", last_name: "me", ui_layout: "dashboard", ai_enabled: false } });
    }
    expect((await api.get("/api/v1/users/me")).status).toBe(401);
  });

  it("enables AI with PATCH /api/v1/auth/enable_ai (write scope), idempotently", async () => {
    const user = await signUpUser(api, "ai");
    const denied = await api.patch("/api/v1/auth/enable_ai", undefined, { apiKey: user.readKey });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("insufficient_scope");
    for (let i = 0; i < 2; i++) {
      const res = await api.patch("/api/v1/auth/enable_ai", undefined, { apiKey: user.writeKey });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: user.id, ai_enabled: true });
    }
    expect((await api.get("/api/v1/users/me", { token: user.accessToken })).body.user.ai_enabled).toBe(true);
  });
});

describe("logout", () => {
  it("ends the session of the bearer token at once: its access and refresh tokens stop working", async () => {
    const user = await signUpUser(api, "logout");
    const other = await logIn(api, user.email, TEST_PASSWORD, SECOND_DEVICE); // another session of the same user
    const res = await api.post("/api/v1/auth/logout", undefined, { token: user.accessToken });
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect((await api.get("/api/v1/tags", { token: user.accessToken })).status).toBe(401);
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    // Only that session: the other one and the API keys go on.
    expect((await api.get("/api/v1/tags", { token: other.body.access_token })).status).toBe(200);
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    // Logging out twice is a 401 (the token's session is over), not an error.
    expect((await api.post("/api/v1/auth/logout", undefined, { token: user.accessToken })).status).toBe(401);
  });

  it("needs a bearer token: no credential is 401, an API key is 403", async () => {
    const user = await signUpUser(api, "logout-key");
    expect((await api.post("/api/v1/auth/logout", undefined)).status).toBe(401);
    expect((await api.post("/api/v1/auth/logout", undefined, { apiKey: user.writeKey })).status).toBe(403);
  });
});

describe("authentication on /api/v1", () => {
  it("answers 401 with the error body without a credential, or with a bad one", async () => {
    for (const options of [{}, { apiKey: "hk_not-a-real-key" }, { token: "not.a.jwt" }, { headers: { authorization: "Basic abc" } }]) {
      const res = await api.get("/api/v1/tags", options);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: "unauthorized", message: expect.any(String) });
    }
  });

  it("reads role and family live for bearer tokens: a demotion takes effect within a second", async () => {
    const user = await signUpUser(api, "demoted");
    expect((await api.get("/api/v1/audit-logs", { token: user.accessToken })).status).toBe(200);
    await changeCredentialsDirectly(system.db.gateway, user.id, (tx) => tx.membership.update({ where: { userId: user.id }, data: { role: "member" } }));
    // The change reaches the gateway's credential memory by PostgreSQL's announcement (credential-changes.ts).
    await answersWithinOneSecond(() => api.get("/api/v1/audit-logs", { token: user.accessToken }), 403);
    const denied = await api.get("/api/v1/audit-logs", { token: user.accessToken });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe("forbidden");
  });

  it("refuses a bearer token signed with another secret", async () => {
    const { SignJWT } = await import("jose");
    // Well-formed in every claim (a real session id included): only the signature is wrong.
    const session = await system.db.gateway.session.findFirstOrThrow({ where: { revokedAt: null }, include: { user: { include: { membership: true } } } });
    const forged = await new SignJWT({ fam: session.user.membership?.familyId, sid: session.id, role: "admin", scope: "read_write" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(session.userId)
      .setIssuer("hearth")
      .setAudience("hearth-api")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("x".repeat(40)));
    expect((await api.get("/api/v1/tags", { token: forged })).status).toBe(401);
  });

  it("lets a read key read but answers 403 insufficient_scope to its writes", async () => {
    const user = await signUpUser(api, "scopes");
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    const write = await api.post("/api/v1/tags", { tag: { name: "Nope" } }, { apiKey: user.readKey });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: "insufficient_scope", message: "This action requires the 'read_write' scope" });
    expect((await api.post("/api/v1/tags", { tag: { name: "Yes" } }, { apiKey: user.writeKey })).status).toBe(201);
  });

  it("records last_used_at when a key is used", async () => {
    const user = await signUpUser(api, "lastused");
    const before = await api.get("/api/v1/api_keys", { token: user.accessToken });
    expect(before.body.api_keys.every((key: { last_used_at: string | null }) => key.last_used_at === null)).toBe(true);
    await api.get("/api/v1/tags", { apiKey: user.readKey });
    const after = await api.get("/api/v1/api_keys", { token: user.accessToken });
    const readKey = after.body.api_keys.find((key: { scopes: string[] }) => key.scopes[0] === "read");
    expect(readKey.last_used_at).toEqual(expect.any(String));
  });
});

describe("API keys", () => {
  it("shows the plain key once, stores only its hash, and lists keys without it", async () => {
    const user = await signUpUser(api, "keys");
    const created = await api.post("/api/v1/api_keys", { api_key: { name: "CLI", scopes: ["read"] } }, { token: user.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "CLI", scopes: ["read"], key: expect.any(String), display_key: expect.any(String), last_used_at: null });
    const stored = await system.db.gateway.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(stored.keyHash).not.toContain(created.body.key);
    expect(JSON.stringify(stored)).not.toContain(created.body.key);
    const list = await api.get("/api/v1/api_keys", { token: user.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.api_keys.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
  });

  it("holds at most 10 live keys per user, counted under a lock: parallel asks stop at 10; a revoke makes room", async () => {
    const user = await signUpUser(api, "keycap"); // its read and write keys are two of the ten
    const asked = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post("/api/v1/api_keys", { api_key: { name: `Script ${i}`, scopes: ["read"] } }, { token: user.accessToken })),
    );
    expect(asked.filter((res) => res.status === 201)).toHaveLength(8);
    const refused = asked.filter((res) => res.status !== 201);
    expect(refused.map((res) => [res.status, res.body.error])).toEqual(Array.from({ length: 4 }, () => [422, "validation_failed"]));
    expect(refused[0]!.body.errors).toEqual(["A user can have at most 10 active API keys: revoke one first"]);
    expect(await system.db.gateway.apiKey.count({ where: { userId: user.id, revokedAt: null } })).toBe(10);

    const one = asked.find((res) => res.status === 201)!;
    expect((await api.delete(`/api/v1/api_keys/${one.body.id}`, { token: user.accessToken })).status).toBe(204);
    expect((await api.post("/api/v1/api_keys", { api_key: { name: "Again", scopes: ["read"] } }, { token: user.accessToken })).status).toBe(201);
  });

  it("validates the name and scopes with 422", async () => {
    const user = await signUpUser(api, "keyval");
    for (const api_key of [
      { name: "", scopes: ["read"] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["read", "read_write"] },
    ]) {
      const res = await api.post("/api/v1/api_keys", { api_key }, { token: user.accessToken });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("validation_failed");
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("is managed with a bearer token only: an API key gets 403", async () => {
    const user = await signUpUser(api, "keybearer");
    expect((await api.get("/api/v1/api_keys", { apiKey: user.writeKey })).status).toBe(403);
    expect((await api.post("/api/v1/api_keys", { api_key: { name: "x", scopes: ["read"] } }, { apiKey: user.writeKey })).status).toBe(403);
  });

  it("revokes own keys (the key stops working at once) and answers 404 for anyone else's", async () => {
    const owner = await signUpUser(api, "revoke");
    const other = await signUpUser(api, "revoke-other");
    const keys = await api.get("/api/v1/api_keys", { token: owner.accessToken });
    const readKeyId = keys.body.api_keys.find((key: { scopes: string[] }) => key.scopes[0] === "read").id;

    const foreign = await api.delete(`/api/v1/api_keys/${readKeyId}`, { token: other.accessToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("record_not_found");

    const revoked = await api.delete(`/api/v1/api_keys/${readKeyId}`, { token: owner.accessToken });
    expect(revoked.status).toBe(204);
    expect((await api.get("/api/v1/tags", { apiKey: owner.readKey })).status).toBe(401);
    expect((await api.delete(`/api/v1/api_keys/${readKeyId}`, { token: owner.accessToken })).status).toBe(404);
    expect((await api.delete("/api/v1/api_keys/not-a-uuid", { token: owner.accessToken })).status).toBe(404);
  });
});
