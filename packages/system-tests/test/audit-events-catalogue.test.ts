import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_EVENT_SEVERITY, AuditLogListSchema, type AuditEventType, type AuditLogEntry, type Severity } from "@hearth/contracts";
import { startOidcProvider, testKafkaBrokers, testPostgresAdminUrl, type OidcTestUser, type TestOidcProvider } from "@hearth/test-kit";
import {
  APP_REDIRECT,
  DEVICE,
  SECOND_DEVICE,
  followSsoCallback,
  ssoProviderSettings,
  ssoSignIn,
  TEST_PASSWORD,
  apiClient,
  eventually,
  logIn,
  signUpUser,
  startSystem,
  type ApiClient,
  type ApiResponse,
  type TestSystem,
  type TestUser,
} from "../src";

// The catalogue of spec section 6: every audit event type, each caused by one real HTTP request
// to the gateway (with its own X-Request-Id and User-Agent) and read back from GET
// /api/v1/audit-logs with the right severity, user and request facts. Over Kafka when the run
// has a broker, else through the outbox relay straight to the audit service.
const brokers = testKafkaBrokers() ?? undefined;
if (!brokers && process.env.REQUIRE_KAFKA === "1") throw new Error("REQUIRE_KAFKA=1 but the run has no Kafka: the audit catalogue must be proven over it");

const CLIENT_SECRET = "catalogue-client-secret-0001";
const IDLE_SECONDS = 2;
/** How Express reports a client on the loopback interface (the gateway listens on 127.0.0.1). */
const LOOPBACK = /^(127\.0\.0\.1|::ffff:127\.0\.0\.1|::1)$/;
const ROW_TIMEOUT_MS = 90_000;

/** An identity at the provider that the admin links to their existing account. */
const linked: OidcTestUser = { sub: "linked-sub", email: "linked.catalogue@example.test", email_verified: true, groups: ["hearth-admins"] };
/** An identity unknown to Hearth: signing in with it creates an account just in time, as a member. */
const newcomer: OidcTestUser = {
  sub: "newcomer-sub",
  email: "newcomer.catalogue@example.test",
  email_verified: true,
  given_name: "New",
  family_name: "Comer",
  groups: ["family"],
};

/** The request that causes an event; its entry must repeat this request id and user agent. */
interface Cause {
  requestId: string;
  userAgent: string;
  headers: Record<string, string>;
}

/** An admin's view of an audit log: the system's API and their bearer token. */
interface Reader {
  api: ApiClient;
  token: string;
}

/** What an action caused: the user its event is about, and who reads it (the main admin unless said). */
interface Emitted {
  user: { id: string; email: string };
  reader?: Reader;
}

interface Row {
  /** As in the spec's table, lowercase. */
  severity: Severity;
  /** Sends `cause.headers` on the one request that must emit the event. */
  act: (cause: Cause) => Promise<Emitted>;
}

let system: TestSystem;
/** A second system whose sessions idle out after IDLE_SECONDS, for auth.session.expired only (it would end every session here). */
let expirySystem: TestSystem;
let api: ApiClient;
let idp: TestOidcProvider;
let admin: TestUser;
let mainProviderId: string;
let secondProviderId: string;

beforeAll(async () => {
  [system, expirySystem] = await Promise.all([
    // No refresh grace window: auth.token.revoked below is a spent token presented again at once.
    startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers, gatewayEnv: { REFRESH_REUSE_GRACE_SECONDS: "0" } }),
    startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers, gatewayEnv: { SESSION_IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS) } }),
  ]);
  expect(system.gateway.publisherName).toBe(brokers ? "kafka" : "audit-service");
  // No sweep: the idle session must be found by a request, whose facts the event then records.
  await expirySystem.gateway.sessionExpiry.stop();
  api = apiClient(system.url);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: CLIENT_SECRET, redirect_uris: [`${system.url}/api/v1/auth/sso/callback`] }],
    users: [linked, newcomer],
  });
  admin = await signUpUser(api, "catalogue-admin");
  // The log is read with a session on a device of its own: the admin's logins and SSO sign-ins
  // below are on DEVICE, where each new one ends the earlier ones (as Sure's do).
  admin.accessToken = (await expectStatus(logIn(api, admin.email, TEST_PASSWORD, SECOND_DEVICE), 200)).access_token;
  mainProviderId = (await expectStatus(createProvider("catalogue-idp"), 201)).id;
  secondProviderId = (await expectStatus(createProvider("catalogue-second-idp"), 201)).id;
});
afterAll(async () => {
  await idp?.stop();
  await expirySystem?.stop();
  await system?.stop();
});

/** A distinct request id and user agent for the request that causes `eventType`. */
function causeOf(eventType: AuditEventType): Cause {
  const tag = randomBytes(4).toString("hex");
  const requestId = `catalogue.${eventType}.${tag}`;
  const userAgent = `HearthCatalogue/1.0 (${eventType}; ${tag})`;
  return { requestId, userAgent, headers: { "x-request-id": requestId, "user-agent": userAgent } };
}

/** Awaits a response, checks its status (showing the body when wrong) and answers the body. */
async function expectStatus(pending: Promise<ApiResponse>, status: number): Promise<any> {
  const res = await pending;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

const asAdmin = (cause?: Cause) => ({ token: admin.accessToken, ...(cause ? { headers: cause.headers } : {}) });
const adminUser = () => ({ id: admin.id, email: admin.email });

function createProvider(name: string, overrides: Record<string, unknown> = {}, cause?: Cause) {
  return api.post("/api/v1/sso_providers", { sso_provider: ssoProviderSettings(idp, CLIENT_SECRET, name, overrides) }, asAdmin(cause));
}

/** A new admin session of the main admin (so the session the test reads the log with stays untouched). */
const freshAdminSession = () => expectStatus(logIn(api, admin.email), 200);

function refresh(refreshToken: string, cause?: Cause) {
  return api.post("/api/v1/auth/refresh", { refresh_token: refreshToken, device: { device_id: DEVICE.device_id } }, cause ? { headers: cause.headers } : {});
}

/** Invites a new person into the admin's family as a member and signs them up with the code (the sign-up sent with `cause`'s headers). */
async function inviteMember(label: string, cause?: Cause): Promise<{ id: string; email: string; accessToken: string }> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await expectStatus(api.post("/api/v1/invitations", { invitation: { email, role: "member" } }, asAdmin()), 201);
  const body = { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.invite_code };
  const signup = await expectStatus(api.post("/api/v1/auth/signup", body, cause ? { headers: cause.headers } : {}), 201);
  return { id: signup.user.id, email, accessToken: signup.access_token };
}

const signInAt = (sub: string, providerId: string, headers: Record<string, string> = {}) => ssoSignIn(api, idp, providerId, sub, headers);
const followCallback = followSsoCallback;

/** Links the provider identity behind `linkingCode` to the admin's account (proven by their password). */
function linkToAdmin(linkingCode: string | null, cause: Cause) {
  return api.post("/api/v1/auth/sso_link", { linking_code: linkingCode, email: admin.email, password: TEST_PASSWORD }, { headers: cause.headers });
}

async function adminIdentityAt(provider: string): Promise<string> {
  const { sso_identities } = await expectStatus(api.get("/api/v1/sso_identities", asAdmin()), 200);
  const identity = (sso_identities as { id: string; provider: string }[]).find((candidate) => candidate.provider === provider);
  if (!identity) throw new Error(`the admin has no identity at ${provider}`);
  return identity.id;
}

/** Polls the audit log (filtered by type, user and time) until the entry of `cause`'s request is there; answers it. */
async function auditEntryOf(eventType: AuditEventType, emitted: Emitted, cause: Cause, since: string): Promise<AuditLogEntry> {
  const reader = emitted.reader ?? { api, token: admin.accessToken };
  const query = new URLSearchParams({ eventType, userId: emitted.user.id, startDate: since, limit: "100" });
  const matching = await eventually(
    async () => {
      const res = await reader.api.get(`/api/v1/audit-logs?${query.toString()}`, { token: reader.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const found = AuditLogListSchema.parse(res.body).filter((entry) => entry.requestId === cause.requestId);
      expect(found.length, `no ${eventType} entry of request ${cause.requestId} yet`).toBeGreaterThan(0);
      return found;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  expect(matching, "one request, one entry of its type").toHaveLength(1);
  return matching[0] as AuditLogEntry;
}

// Rows run in this order and share state (a provider created, then updated...).
let toggledProviderId: string;
let suspendedMemberId: string;
let jitUser: { id: string; email: string };

const catalogue: Record<AuditEventType, Row> = {
  "auth.login.success": {
    severity: "info",
    act: async (cause) => {
      await expectStatus(api.post("/api/v1/auth/login", { email: admin.email, password: TEST_PASSWORD, device: DEVICE }, { headers: cause.headers }), 200);
      return { user: adminUser() };
    },
  },
  "auth.login.failed": {
    severity: "warning",
    act: async (cause) => {
      await expectStatus(api.post("/api/v1/auth/login", { email: admin.email, password: "Wrong-horse-1", device: DEVICE }, { headers: cause.headers }), 401);
      return { user: adminUser() };
    },
  },
  "auth.logout": {
    severity: "info",
    act: async (cause) => {
      const session = await freshAdminSession();
      await expectStatus(api.post("/api/v1/auth/logout", undefined, { token: session.access_token, headers: cause.headers }), 204);
      return { user: adminUser() };
    },
  },
  "auth.token.issued": {
    severity: "info",
    act: async (cause) => {
      // A new member's sign-up issues their first tokens (and records nothing else).
      const member = await inviteMember("issued", cause);
      return { user: { id: member.id, email: member.email } };
    },
  },
  "auth.token.refreshed": {
    severity: "info",
    act: async (cause) => {
      await expectStatus(refresh((await freshAdminSession()).refresh_token, cause), 200);
      return { user: adminUser() };
    },
  },
  "auth.token.revoked": {
    severity: "warning",
    act: async (cause) => {
      // A refresh token presented again after it was spent: the whole session is revoked.
      const session = await freshAdminSession();
      await expectStatus(refresh(session.refresh_token), 200);
      await expectStatus(refresh(session.refresh_token, cause), 401);
      return { user: adminUser() };
    },
  },
  "auth.session.expired": {
    severity: "info",
    act: async (cause) => {
      const idleApi = apiClient(expirySystem.url);
      const user = await signUpUser(idleApi, "catalogue-idle");
      await sleep(IDLE_SECONDS * 1000 + 600);
      await expectStatus(idleApi.get("/api/v1/users/me", { token: user.accessToken, headers: cause.headers }), 401);
      // The expired session cannot read the log: a new one can (the reads keep it busy).
      const reader = { api: idleApi, token: (await expectStatus(logIn(idleApi, user.email), 200)).access_token };
      return { user: { id: user.id, email: user.email }, reader };
    },
  },

  "provider.created": {
    severity: "info",
    act: async (cause) => {
      toggledProviderId = (await expectStatus(createProvider("catalogue-toggled", { enabled: false }, cause), 201)).id;
      return { user: adminUser() };
    },
  },
  "provider.updated": {
    severity: "info",
    act: async (cause) => {
      await expectStatus(api.patch(`/api/v1/sso_providers/${toggledProviderId}`, { sso_provider: { allow_account_creation: false } }, asAdmin(cause)), 200);
      return { user: adminUser() };
    },
  },
  "provider.enabled": {
    severity: "info",
    act: async (cause) => {
      expect((await expectStatus(api.post(`/api/v1/sso_providers/${toggledProviderId}/enable`, undefined, asAdmin(cause)), 200)).enabled).toBe(true);
      return { user: adminUser() };
    },
  },
  "provider.disabled": {
    severity: "warning",
    act: async (cause) => {
      expect((await expectStatus(api.post(`/api/v1/sso_providers/${toggledProviderId}/disable`, undefined, asAdmin(cause)), 200)).enabled).toBe(false);
      return { user: adminUser() };
    },
  },
  "provider.test": {
    severity: "info",
    act: async (cause) => {
      // The admin starts the test; the event is recorded at the provider's redirect back to the gateway.
      const started = await expectStatus(api.post(`/api/v1/sso_providers/${toggledProviderId}/test`, { redirect_uri: APP_REDIRECT }, asAdmin()), 200);
      const back = await followCallback(await idp.authorize(started.authorization_url, linked.sub), cause.headers);
      expect(back.searchParams.get("sso_test")).toBe("ok");
      return { user: adminUser() };
    },
  },
  "provider.deleted": {
    severity: "warning",
    act: async (cause) => {
      await expectStatus(api.delete(`/api/v1/sso_providers/${toggledProviderId}`, asAdmin(cause)), 204);
      return { user: adminUser() };
    },
  },

  "user.created": {
    severity: "info",
    act: async (cause) => {
      const back = await signInAt(newcomer.sub, mainProviderId);
      const created = await expectStatus(
        api.post("/api/v1/auth/sso_create_account", { linking_code: back.searchParams.get("linking_code") }, { headers: cause.headers }),
        200,
      );
      jitUser = { id: created.user.id, email: newcomer.email };
      return { user: jitUser };
    },
  },
  "user.updated": {
    severity: "info",
    act: async (cause) => {
      await expectStatus(api.patch("/api/v1/users/me", { user: { first_name: "Catalogued" } }, asAdmin(cause)), 200);
      return { user: adminUser() };
    },
  },
  "user.suspended": {
    severity: "warning",
    act: async (cause) => {
      const member = await inviteMember("suspended");
      suspendedMemberId = member.id;
      await expectStatus(api.post(`/api/v1/users/${member.id}/suspend`, undefined, asAdmin(cause)), 200);
      return { user: { id: member.id, email: member.email } };
    },
  },
  "user.reactivated": {
    severity: "info",
    act: async (cause) => {
      const { user } = await expectStatus(api.post(`/api/v1/users/${suspendedMemberId}/reactivate`, undefined, asAdmin(cause)), 200);
      return { user: { id: user.id, email: user.email } };
    },
  },
  "user.deleted": {
    severity: "warning",
    act: async (cause) => {
      const leaver = await inviteMember("leaver");
      await expectStatus(api.delete("/api/v1/users/me", { token: leaver.accessToken, headers: cause.headers }), 200);
      return { user: { id: leaver.id, email: leaver.email } };
    },
  },
  "user.data_reset": {
    severity: "warning",
    act: async (cause) => {
      await expectStatus(api.delete("/api/v1/users/reset", asAdmin(cause)), 200);
      return { user: adminUser() };
    },
  },
  "user.roles.synced": {
    severity: "info",
    act: async (cause) => {
      // The provider now puts the newcomer in the admin group: the next sign-in's callback syncs the role.
      idp.addUser({ ...newcomer, groups: ["hearth-admins"] });
      const back = await signInAt(newcomer.sub, mainProviderId, cause.headers);
      expect(back.searchParams.get("code")).toBeTruthy();
      return { user: jitUser };
    },
  },
  "user.roles.updated": {
    severity: "info",
    act: async (cause) => {
      const member = await inviteMember("promoted");
      await expectStatus(api.patch(`/api/v1/users/${member.id}/role`, { role: "admin" }, asAdmin(cause)), 200);
      return { user: { id: member.id, email: member.email } };
    },
  },

  "account.connected": {
    severity: "info",
    act: async (cause) => {
      // The admin's first provider identity connects SSO to their account.
      const back = await signInAt(linked.sub, mainProviderId);
      await expectStatus(linkToAdmin(back.searchParams.get("linking_code"), cause), 200);
      return { user: adminUser() };
    },
  },
  "account.linked": {
    severity: "info",
    act: async (cause) => {
      // A second provider's identity links to the same account.
      const back = await signInAt(linked.sub, secondProviderId);
      await expectStatus(linkToAdmin(back.searchParams.get("linking_code"), cause), 200);
      return { user: adminUser() };
    },
  },
  "account.unlinked": {
    severity: "warning",
    act: async (cause) => {
      await expectStatus(api.delete(`/api/v1/sso_identities/${await adminIdentityAt("catalogue-second-idp")}`, asAdmin(cause)), 204);
      return { user: adminUser() };
    },
  },
  "account.disconnected": {
    severity: "warning",
    act: async (cause) => {
      // Removing the last identity disconnects SSO from the account.
      await expectStatus(api.delete(`/api/v1/sso_identities/${await adminIdentityAt("catalogue-idp")}`, asAdmin(cause)), 204);
      return { user: adminUser() };
    },
  },
};

describe(`audit event catalogue (${brokers ? "over Kafka" : "direct path"})`, () => {
  const covered = new Set<AuditEventType>();

  for (const [eventType, row] of Object.entries(catalogue) as [AuditEventType, Row][]) {
    it(
      `${eventType} (${row.severity}) carries its user and the facts of the request that caused it`,
      async () => {
        const cause = causeOf(eventType);
        const since = new Date().toISOString();
        const emitted = await row.act(cause);
        const entry = await auditEntryOf(eventType, emitted, cause, since);
        expect(entry).toMatchObject({ eventType, severity: row.severity, requestId: cause.requestId, userAgent: cause.userAgent });
        expect(entry.user).toEqual(emitted.user);
        expect(entry.ipAddress).toMatch(LOOPBACK);
        covered.add(eventType);
      },
      ROW_TIMEOUT_MS,
    );
  }

  it("covers every event type the contracts know (a new type fails here until it has a row)", () => {
    expect([...covered].sort()).toEqual(Object.keys(AUDIT_EVENT_SEVERITY).sort());
  });
});
