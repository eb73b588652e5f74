import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, testPostgresAdminUrl, type OidcTestUser, type TestOidcProvider } from "@hearth/test-kit";
import {
  DEVICE,
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  expectAuditEntries,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
  type TestUser,
  APP_REDIRECT,
  followSsoCallback,
  ssoProviderSettings,
  ssoSignIn,
} from "../src";

// SSO end to end: a real OpenID provider (oidc-provider) on a loopback port, the gateway as
// relying party, and the app's side played by this test (Sure's mobile endpoints).
const APP = APP_REDIRECT;
const CLIENT_SECRET = "provider-client-secret-0001";
const alice: OidcTestUser = {
  sub: "alice-sub",
  email: "alice.sso@example.test",
  email_verified: true,
  given_name: "Alice",
  family_name: "Idp",
  groups: ["hearth-admins"],
};
const bob: OidcTestUser = { sub: "bob-sub", email: "bob.sso@example.test", email_verified: true, given_name: "Bob", family_name: "Idp", groups: ["family"] };

let system: TestSystem;
let api: ApiClient;
let idp: TestOidcProvider;
let admin: TestUser;
let providerId: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: CLIENT_SECRET, redirect_uris: [`${system.url}/api/v1/auth/sso/callback`] }],
    users: [alice, bob],
  });
  admin = await signUpUser(api, "sso-admin");
  // The admin works with a session on a device of its own: the SSO sign-ins of the admin below
  // are on DEVICE, where each new one ends the earlier ones (as Sure's do).
  const reader = await api.post("/api/v1/auth/login", { email: admin.email, password: TEST_PASSWORD, device: SECOND_DEVICE });
  expect(reader.status).toBe(200);
  admin.accessToken = reader.body.access_token;
  const created = await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("family-idp") }, { token: admin.accessToken });
  expect(created.status).toBe(201);
  providerId = created.body.id;
});
afterAll(async () => {
  await idp?.stop();
  await system?.stop();
});

const providerSettings = (name: string, overrides: Record<string, unknown> = {}) => ssoProviderSettings(idp, CLIENT_SECRET, name, overrides);
const signInAt = (sub: string, id = providerId) => ssoSignIn(api, idp, id, sub);
const followCallback = (callback: URL) => followSsoCallback(callback);

describe("SSO provider administration", () => {
  it("creates a provider without ever showing its secret, which is stored sealed; every change is audited", async () => {
    const res = await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("admin-crud", { enabled: false }) }, { token: admin.accessToken });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "admin-crud",
      issuer: idp.issuer,
      client_id: "hearth",
      enabled: false,
      scopes: "openid email profile",
      default_role: "member",
    });
    expect(JSON.stringify(res.body)).not.toContain(CLIENT_SECRET);
    const stored = await system.db.gateway.ssoProvider.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.clientSecret).not.toContain(CLIENT_SECRET);
    const auth = { token: admin.accessToken };
    const id = res.body.id as string;

    expect(
      (await api.patch(`/api/v1/sso_providers/${id}`, { sso_provider: { client_secret: "rotated-secret", allow_account_creation: false } }, auth)).status,
    ).toBe(200);
    expect((await api.post(`/api/v1/sso_providers/${id}/enable`, undefined, auth)).body.enabled).toBe(true);
    expect((await api.post(`/api/v1/sso_providers/${id}/disable`, undefined, auth)).body.enabled).toBe(false);
    expect((await api.get(`/api/v1/sso_providers/${id}`, auth)).body.allow_account_creation).toBe(false);
    expect((await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("admin-crud") }, auth)).status).toBe(422);
    expect((await api.delete(`/api/v1/sso_providers/${id}`, auth)).status).toBe(204);
    expect((await api.get(`/api/v1/sso_providers/${id}`, auth)).status).toBe(404);

    // The spec's filter is the provider's id; its name works too.
    const entries = await expectAuditEntries(api, admin.accessToken, `provider=${id}`, 5);
    expect(await expectAuditEntries(api, admin.accessToken, "provider=admin-crud", 5)).toEqual(entries);
    expect(entries.every((entry) => entry.providerId === id)).toBe(true);
    expect(entries.map((entry) => [entry.eventType, entry.severity])).toEqual([
      ["provider.deleted", "warning"],
      ["provider.disabled", "warning"],
      ["provider.enabled", "info"],
      ["provider.updated", "info"],
      ["provider.created", "info"],
    ]);
    expect(entries[3]?.changes).toEqual({ allow_account_creation: { old: true, new: false }, client_secret: { old: "[FILTERED]", new: "[FILTERED]" } });
    expect(JSON.stringify(entries)).not.toContain("rotated-secret");
  });

  it("is for the family's admins only, by bearer token", async () => {
    const stranger = await signUpUser(api, "sso-stranger");
    expect((await api.get(`/api/v1/sso_providers/${providerId}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await api.get("/api/v1/sso_providers", { apiKey: admin.readKey })).status).toBe(403);
    expect(
      (
        await api.post(
          "/api/v1/sso_providers",
          { sso_provider: { name: "Bad Name", issuer: "ftp://x", client_id: "", client_secret: "" } },
          { token: admin.accessToken },
        )
      ).status,
    ).toBe(422);
  });

  it("tests a provider: a working one records provider.test, a wrong secret records it with the error", async () => {
    const auth = { token: admin.accessToken };
    const created = await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("tested", { enabled: false }) }, auth);
    const ok = await api.post(`/api/v1/sso_providers/${created.body.id}/test`, { redirect_uri: APP }, auth);
    expect(ok.status).toBe(200);
    expect((await followCallback(await idp.authorize(ok.body.authorization_url, "alice-sub"))).searchParams.get("sso_test")).toBe("ok");

    await api.patch(`/api/v1/sso_providers/${created.body.id}`, { sso_provider: { client_secret: "wrong-secret" } }, auth);
    const bad = await api.post(`/api/v1/sso_providers/${created.body.id}/test`, { redirect_uri: APP }, auth);
    const back = await followCallback(await idp.authorize(bad.body.authorization_url, "alice-sub"));
    expect(back.searchParams.get("sso_test")).toBe("failed");
    const entries = await expectAuditEntries(api, admin.accessToken, "eventType=provider.test&provider=tested", 2);
    expect(entries.map((entry) => entry.error)).toEqual(["token_exchange_failed", null]);
    expect(entries[1]).toMatchObject({ severity: "info", user: { id: admin.id } });
  });
});

describe("SSO sign-in", () => {
  it("creates an account just in time in the provider's family, then signs it in by exchange code", async () => {
    const back = await signInAt("bob-sub");
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(APP);
    expect(back.searchParams.get("allow_account_creation")).toBe("true");
    expect(back.searchParams.get("email")).toBe(bob.email);
    const linkingCode = back.searchParams.get("linking_code");

    const created = await api.post("/api/v1/auth/sso_create_account", { linking_code: linkingCode });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ token_type: "Bearer", user: { email: bob.email, first_name: "Bob", last_name: "Idp" } });
    const bobId = created.body.user.id as string;
    const members = (await api.get("/api/v1/users", { token: admin.accessToken })).body.users;
    expect(members).toContainEqual(expect.objectContaining({ id: bobId, role: "member" }));
    expect((await api.post("/api/v1/auth/sso_create_account", { linking_code: linkingCode })).status).toBe(401);

    const again = await signInAt("bob-sub");
    const code = again.searchParams.get("code");
    expect(code).toBeTruthy();
    const exchanged = await api.post("/api/v1/auth/sso_exchange", { code });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.user.id).toBe(bobId);
    expect((await api.get("/api/v1/users/me", { token: exchanged.body.access_token })).body.user.email).toBe(bob.email);
    const replayed = await api.post("/api/v1/auth/sso_exchange", { code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ error: "invalid_or_expired_code", message: "Authorization code is invalid or expired" });
    expect((await api.post("/api/v1/auth/sso_exchange", {})).body).toMatchObject({ error: "invalid_or_expired_code" });

    const created_ = await expectAuditEntries(api, admin.accessToken, `eventType=user.created&userId=${bobId}`, 1);
    expect(created_[0]).toMatchObject({ severity: "info", provider: "family-idp", user: { email: bob.email } });
    const [connected] = await expectAuditEntries(api, admin.accessToken, `eventType=account.connected&userId=${bobId}`, 1);
    expect(connected).toMatchObject({ providerId, sessionId: expect.any(String) });
    await expectAuditEntries(api, admin.accessToken, `eventType=user.roles.synced&userId=${bobId}`, 1);
    const logins = await expectAuditEntries(api, admin.accessToken, `eventType=auth.login.success&userId=${bobId}`, 2);
    expect(logins.every((entry) => entry.provider === "family-idp")).toBe(true);

    // An account made through SSO has no password: it cannot unlink its only way in until it sets one.
    const bobAuth = { token: exchanged.body.access_token as string };
    const [identity] = (await api.get("/api/v1/sso_identities", bobAuth)).body.sso_identities as { id: string }[];
    const locked = await api.delete(`/api/v1/sso_identities/${identity?.id}`, bobAuth);
    expect(locked.status).toBe(422);
    expect(locked.body.errors[0]).toMatch(/Set a password/);
    expect((await api.post("/api/v1/auth/login", { email: bob.email, password: "!sso-only", device: DEVICE })).status).toBe(401);
    expect((await api.patch("/api/v1/users/me", { user: { password: "Bob-own-pass-1" } }, bobAuth)).status).toBe(200);
    // On another device: a login on DEVICE would end the session of bobAuth.
    expect((await api.post("/api/v1/auth/login", { email: bob.email, password: "Bob-own-pass-1", device: SECOND_DEVICE })).status).toBe(200);
    expect((await api.delete(`/api/v1/sso_identities/${identity?.id}`, bobAuth)).status).toBe(204);
  });

  it("syncs the role from the provider's claim at every sign-in (user.roles.synced)", async () => {
    const carol: OidcTestUser = { sub: "carol-sub", email: "carol.sso@example.test", email_verified: true, groups: [] };
    idp.addUser(carol);
    const created = await api.post("/api/v1/auth/sso_create_account", { linking_code: (await signInAt("carol-sub")).searchParams.get("linking_code") });
    const carolId = created.body.user.id as string;
    idp.addUser({ ...carol, groups: ["hearth-admins"] });
    const exchanged = await api.post("/api/v1/auth/sso_exchange", { code: (await signInAt("carol-sub")).searchParams.get("code") });
    expect(exchanged.status).toBe(200);
    expect((await api.get("/api/v1/invitations", { token: exchanged.body.access_token })).status).toBe(200); // now an admin
    const [synced] = await expectAuditEntries(api, admin.accessToken, `eventType=user.roles.synced&userId=${carolId}`, 2);
    expect(synced).toMatchObject({ provider: "family-idp", changes: { role: { old: "member", new: "admin" } } });
  });

  it("links an existing account with its password; a second provider links, unlinking disconnects", async () => {
    const bad = await api.post("/api/v1/auth/sso_link", {
      linking_code: (await signInAt("alice-sub")).searchParams.get("linking_code"),
      email: admin.email,
      password: "Wrong-pass-1",
    });
    expect(bad.status).toBe(401);
    expect((await api.post("/api/v1/auth/sso_link", { email: admin.email, password: TEST_PASSWORD })).status).toBe(400);

    const linked = await api.post("/api/v1/auth/sso_link", {
      linking_code: (await signInAt("alice-sub")).searchParams.get("linking_code"),
      email: admin.email,
      password: TEST_PASSWORD,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.user.id).toBe(admin.id);
    const exchanged = await api.post("/api/v1/auth/sso_exchange", { code: (await signInAt("alice-sub")).searchParams.get("code") });
    expect(exchanged.body.user.id).toBe(admin.id);

    const second = await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("second-idp") }, { token: admin.accessToken });
    const viaSecond = await signInAt("alice-sub", second.body.id);
    expect(
      (await api.post("/api/v1/auth/sso_link", { linking_code: viaSecond.searchParams.get("linking_code"), email: admin.email, password: TEST_PASSWORD }))
        .status,
    ).toBe(200);

    const identities = (await api.get("/api/v1/sso_identities", { token: admin.accessToken })).body.sso_identities as { id: string; provider: string }[];
    expect(identities.map((identity) => identity.provider)).toEqual(["family-idp", "second-idp"]);
    expect((await api.delete(`/api/v1/sso_identities/${identities[1]?.id}`, { token: admin.accessToken })).status).toBe(204);
    expect((await api.delete(`/api/v1/sso_identities/${identities[0]?.id}`, { token: admin.accessToken })).status).toBe(204);
    expect((await api.delete(`/api/v1/sso_identities/${identities[0]?.id}`, { token: admin.accessToken })).status).toBe(404);

    const byUser = `userId=${admin.id}`;
    expect((await expectAuditEntries(api, admin.accessToken, `eventType=account.connected&${byUser}`, 1))[0]).toMatchObject({
      provider: "family-idp",
      severity: "info",
    });
    expect((await expectAuditEntries(api, admin.accessToken, `eventType=account.linked&${byUser}`, 1))[0]).toMatchObject({
      provider: "second-idp",
      severity: "info",
    });
    expect((await expectAuditEntries(api, admin.accessToken, `eventType=account.unlinked&${byUser}`, 1))[0]).toMatchObject({
      provider: "second-idp",
      severity: "warning",
    });
    expect((await expectAuditEntries(api, admin.accessToken, `eventType=account.disconnected&${byUser}`, 1))[0]).toMatchObject({
      provider: "family-idp",
      severity: "warning",
    });
  });

  it("refuses a disabled provider: at the start, at the callback of a flow begun before, and at the exchange", async () => {
    const auth = { token: admin.accessToken };
    const p = await api.post("/api/v1/sso_providers", { sso_provider: providerSettings("switched-off") }, auth);
    const device = new URLSearchParams({ ...DEVICE, redirect_uri: APP });
    const begun = await api.get(`/api/v1/auth/sso/${p.body.id}/authorize?${device.toString()}`);
    const linkingBack = await signInAt("alice-sub", p.body.id);
    await api.post(`/api/v1/sso_providers/${p.body.id}/disable`, undefined, auth);

    expect((await api.get(`/api/v1/auth/sso/${p.body.id}/authorize?${device.toString()}`)).status).toBe(403);
    const back = await followCallback(await idp.authorize(begun.body.authorization_url, "alice-sub"));
    expect(back.searchParams.get("error")).toBe("provider_disabled");
    expect(
      (await api.post("/api/v1/auth/sso_link", { linking_code: linkingBack.searchParams.get("linking_code"), email: admin.email, password: TEST_PASSWORD }))
        .status,
    ).toBe(403);
    const [failed] = await expectAuditEntries(api, admin.accessToken, "eventType=auth.login.failed&provider=switched-off", 1);
    expect(failed).toMatchObject({ severity: "warning", error: "provider_disabled" });
  });

  it("refuses an unknown or replayed state, a redirect the app did not register, and account creation a provider does not allow", async () => {
    expect((await api.get("/api/v1/auth/sso/callback?state=forged&code=x")).status).toBe(400);
    const device = new URLSearchParams({ ...DEVICE, redirect_uri: APP });
    const start = await api.get(`/api/v1/auth/sso/${providerId}/authorize?${device.toString()}`);
    const callback = await idp.authorize(start.body.authorization_url, "alice-sub");
    await followCallback(callback);
    expect((await fetch(callback, { redirect: "manual" })).status).toBe(400);

    const evil = new URLSearchParams({ ...DEVICE, redirect_uri: "https://evil.example/steal" });
    expect((await api.get(`/api/v1/auth/sso/${providerId}/authorize?${evil.toString()}`)).status).toBe(422);

    const closed = await api.post(
      "/api/v1/sso_providers",
      { sso_provider: providerSettings("no-jit", { allow_account_creation: false }) },
      { token: admin.accessToken },
    );
    idp.addUser({ sub: "dave-sub", email: "dave.sso@example.test", email_verified: true });
    const back = await signInAt("dave-sub", closed.body.id);
    expect(back.searchParams.get("allow_account_creation")).toBe("false");
    const refused = await api.post("/api/v1/auth/sso_create_account", { linking_code: back.searchParams.get("linking_code") });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("SSO account creation is disabled. Please contact an administrator.");
  });
});
