import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startOidcProvider, testPostgresAdminUrl, type TestOidcProvider } from "@hearth/test-kit";
import { DEVICE, apiClient, clearOfWindowEdge, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";
import { APP_REDIRECT, ssoProviderSettings, startConnectionCounter, startHugeDiscovery } from "../src/sso";

// What the gateway sends to SSO providers, and how often anyone may make it: two systems, one as
// deployed (production, private issuers not allowed) and one as the tests run the SSO flow
// (private issuers allowed, a small sign-in allowance per client IP taken from X-Forwarded-For).
const CLIENT_SECRET = "provider-client-secret-0002";
const LIMIT = 3;
const WINDOW_SECONDS = 600;

let deployed: TestSystem;
let relaxed: TestSystem;
let deployedApi: ApiClient;
let relaxedApi: ApiClient;
let deployedAdmin: TestUser;
let relaxedAdmin: TestUser;
let idp: TestOidcProvider;

beforeAll(async () => {
  [deployed, relaxed] = await Promise.all([
    startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { NODE_ENV: "production", SSO_ALLOW_PRIVATE_ISSUERS: "false" } }),
    startSystem({
      adminUrl: testPostgresAdminUrl(),
      gatewayEnv: {
        SSO_ALLOW_PRIVATE_ISSUERS: "true",
        TRUST_PROXY: "1",
        SSO_AUTHORIZE_RATE_LIMIT_REQUESTS: String(LIMIT),
        SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      },
    }),
  ]);
  deployedApi = apiClient(deployed.url);
  relaxedApi = apiClient(relaxed.url);
  [deployedAdmin, relaxedAdmin] = await Promise.all([signUpUser(deployedApi, "sso-deployed"), signUpUser(relaxedApi, "sso-relaxed")]);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: CLIENT_SECRET, redirect_uris: [`${relaxed.url}/api/v1/auth/sso/callback`] }],
    users: [],
  });
});
afterAll(async () => {
  await idp?.stop();
  await Promise.all([deployed?.stop(), relaxed?.stop()]);
});

const settings = (name: string, issuer: string) => ({ ...ssoProviderSettings(idp, CLIENT_SECRET, name), issuer });
const authorizePath = (providerId: string) =>
  `/api/v1/auth/sso/${providerId}/authorize?${new URLSearchParams({ ...DEVICE, redirect_uri: APP_REDIRECT }).toString()}`;

describe("SSO provider addresses (SSO_ALLOW_PRIVATE_ISSUERS unset, production)", () => {
  it("refuses, 422 naming the issuer, a provider at a loopback, private, link-local or metadata address; nothing is sent there", async () => {
    const counter = await startConnectionCounter();
    try {
      const auth = { token: deployedAdmin.accessToken };
      const privateIssuers = [
        `https://127.0.0.1:${counter.port}`,
        `https://localhost:${counter.port}`,
        `https://[::ffff:127.0.0.1]:${counter.port}`,
        `https://[::1]:${counter.port}`,
        "https://10.0.0.1",
        "https://192.168.1.10/realms/home",
        "https://[fd00::1]",
        "https://169.254.169.254",
        "https://0.0.0.0",
      ];
      for (const [i, issuer] of privateIssuers.entries()) {
        const res = await deployedApi.post("/api/v1/sso_providers", { sso_provider: settings(`private-${i}`, issuer) }, auth);
        expect(res.status, issuer).toBe(422);
        expect(res.body.errors[0], issuer).toMatch(/^Issuer (points at|resolves to) an? [a-z -]+ address/);
      }
      const loopback = await deployedApi.post("/api/v1/sso_providers", { sso_provider: settings("loopback", `https://127.0.0.1:${counter.port}`) }, auth);
      expect(loopback.body).toMatchObject({ error: "validation_failed", errors: [expect.stringContaining("SSO_ALLOW_PRIVATE_ISSUERS")] });
      const metadata = await deployedApi.post("/api/v1/sso_providers", { sso_provider: settings("metadata", "https://169.254.169.254") }, auth);
      expect(metadata.body.errors[0]).toBe("Issuer points at a cloud metadata address (169.254.169.254)");
      expect(counter.connections()).toBe(0);
      expect(await deployed.db.gateway.ssoProvider.count()).toBe(0);
    } finally {
      await counter.stop();
    }
  });

  it("refuses an http issuer in production, and a private issuer in an update", async () => {
    const auth = { token: deployedAdmin.accessToken };
    const http = await deployedApi.post("/api/v1/sso_providers", { sso_provider: settings("plain-http", "http://idp.example.invalid") }, auth);
    expect(http.status).toBe(422);
    expect(http.body.errors).toEqual(["Issuer must be an https URL"]);

    // A name that does not resolve (yet) is accepted: every request to it is checked again.
    const created = await deployedApi.post("/api/v1/sso_providers", { sso_provider: settings("public-idp", "https://idp.example.invalid") }, auth);
    expect(created.status).toBe(201);
    const moved = await deployedApi.patch(`/api/v1/sso_providers/${created.body.id}`, { sso_provider: { issuer: "https://10.1.2.3" } }, auth);
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0]).toMatch(/^Issuer points at a private network address \(10\.1\.2\.3\)/);
    expect((await deployedApi.get(`/api/v1/sso_providers/${created.body.id}`, auth)).body.issuer).toBe("https://idp.example.invalid");
  });

  it("starts no sign-in at a provider stored with a private issuer (configured before), and sends it nothing", async () => {
    const counter = await startConnectionCounter();
    try {
      const family = await deployed.db.gateway.membership.findFirstOrThrow({ where: { userId: deployedAdmin.id } });
      const stored = await deployed.db.gateway.ssoProvider.create({
        data: {
          familyId: family.familyId,
          name: "stored-private",
          issuer: `https://127.0.0.1:${counter.port}`,
          clientId: "hearth",
          clientSecret: "sealed-elsewhere",
          scopes: "openid",
          enabled: true,
          allowAccountCreation: false,
          defaultRole: "member",
          roleClaim: null,
          adminClaimValues: [],
        },
      });
      const start = await deployedApi.get(authorizePath(stored.id));
      expect(start.status).toBe(422);
      expect(start.body).toMatchObject({
        error: "validation_failed",
        message: "This SSO provider's address is not allowed: an administrator must change its settings",
      });
      // Its admin is told why.
      const test = await deployedApi.post(`/api/v1/sso_providers/${stored.id}/test`, { redirect_uri: APP_REDIRECT }, { token: deployedAdmin.accessToken });
      expect(test.status).toBe(422);
      expect(test.body.errors[0]).toMatch(/loopback address \(127\.0\.0\.1\)/);
      expect(counter.connections()).toBe(0);
    } finally {
      await counter.stop();
    }
  });
});

describe("SSO provider answers and sign-in starts (private issuers allowed)", () => {
  it("cuts a huge discovery document off: a prompt 503 that says why, and the gateway keeps serving", async () => {
    const huge = await startHugeDiscovery(64 * 1024 * 1024);
    try {
      const auth = { token: relaxedAdmin.accessToken };
      const created = await relaxedApi.post("/api/v1/sso_providers", { sso_provider: settings("huge-discovery", huge.issuer) }, auth);
      expect(created.status).toBe(201);
      const start = await relaxedApi.get(authorizePath(created.body.id), { headers: { "x-forwarded-for": "198.51.100.200" } });
      expect(start.status).toBe(503);
      expect(start.body).toMatchObject({ error: "service_unavailable", message: "The SSO provider answered something unusable (too large or malformed)" });
      const test = await relaxedApi.post(`/api/v1/sso_providers/${created.body.id}/test`, { redirect_uri: APP_REDIRECT }, auth);
      expect(test.status).toBe(503);
      expect(test.body.message).toMatch(/larger than 262144 bytes/);
      expect(huge.transfer.requests).toBe(2);
      expect(huge.transfer.completed).toBe(false);
      expect(huge.transfer.written).toBeLessThan(32 * 1024 * 1024);
      expect((await relaxedApi.get("/health")).status).toBe(200);
    } finally {
      await huge.stop();
    }
  });

  it("refuses the metadata and link-local addresses even so", async () => {
    const auth = { token: relaxedAdmin.accessToken };
    for (const issuer of ["http://169.254.169.254", "http://[fe80::1]", "http://[::ffff:169.254.169.254]"]) {
      const res = await relaxedApi.post("/api/v1/sso_providers", { sso_provider: settings("metadata", issuer) }, auth);
      expect(res.status, issuer).toBe(422);
      expect(res.body.errors[0]).not.toContain("SSO_ALLOW_PRIVATE_ISSUERS");
    }
  });

  describe("per address", () => {
    beforeEach(() => clearOfWindowEdge(WINDOW_SECONDS));

    it("allows each client IP a few sign-in starts per window, then answers 429 with when to retry", async () => {
      const created = await relaxedApi.post("/api/v1/sso_providers", { sso_provider: settings("throttled", idp.issuer) }, { token: relaxedAdmin.accessToken });
      expect(created.status).toBe(201);
      const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });
      for (let i = 0; i < LIMIT; i++) expect((await relaxedApi.get(authorizePath(created.body.id), from("198.51.100.1"))).status).toBe(200);
      const refused = await relaxedApi.get(authorizePath(created.body.id), from("198.51.100.1"));
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        error: "rate_limit_exceeded",
        message: expect.stringMatching(/^Too many SSO sign-ins from this address\. Try again in \d+ seconds\.$/),
        details: { limit: LIMIT, reset_in_seconds: expect.any(Number) },
      });
      expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.reset_in_seconds));
      // Unknown providers count too: the allowance is spent before anything is looked up.
      expect((await relaxedApi.get(authorizePath("00000000-0000-7000-8000-000000000000"), from("198.51.100.1"))).status).toBe(429);
      expect((await relaxedApi.get(authorizePath(created.body.id), from("198.51.100.2"))).status).toBe(200);

      // Counted before any work: of 20 at once from one address, the allowance starts a flow.
      const burst = await Promise.all(Array.from({ length: 20 }, () => relaxedApi.get(authorizePath(created.body.id), from("198.51.100.3"))));
      expect(burst.filter((res) => res.status === 200)).toHaveLength(LIMIT);
      expect(burst.filter((res) => res.status === 429)).toHaveLength(20 - LIMIT);
      expect(await relaxed.db.gateway.ssoFlow.count({ where: { providerId: created.body.id } })).toBe(2 * LIMIT + 1);
    });
  });
});
