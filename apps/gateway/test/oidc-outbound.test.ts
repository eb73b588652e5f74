import type { LookupAddress } from "node:dns";
import { afterEach, describe, expect, it } from "vitest";
import { classifyAddress } from "@hearth/service-kit";
import { createOidcClient, type OidcError } from "../src/identity/sso/oidc-client";
import { json, sendHugeIssuer, startStubServer, type StubServer } from "./stub-server";

// The gateway's requests to SSO providers, against local servers that misbehave. 127.0.0.1
// stands for "a public address" here (an injected classification), 127.0.0.2 for a private one
// (the trap: a server there must never be reached), and host names resolve through an
// injected resolver instead of DNS.
const PUBLIC = "127.0.0.1";
const PRIVATE = "127.0.0.2";
const publicLoopback = (address: string) => (address === PUBLIC ? { kind: "public" as const } : classifyAddress(address));

const servers: StubServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function stub(handle: Parameters<typeof startStubServer>[0], host = PUBLIC, port = 0) {
  const server = await startStubServer(handle, host, port);
  servers.push(server);
  return server;
}
/** A server on the private address that answers like a provider would: it must see nothing. */
const trap = (port = 0) => stub((_req, res) => json(res, { id_token: "stolen" }), PRIVATE, port);

const discoveryOf = (issuer: string, overrides: Record<string, string> = {}) => ({
  issuer,
  authorization_endpoint: `${issuer}/auth`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  ...overrides,
});

/** A provider at the stub's address whose discovery document is `discovery` and whose other paths answer with `rest`. */
async function provider(discovery: (issuer: string) => unknown, rest: Parameters<typeof startStubServer>[0] = (_req, res) => json(res, {}, 404)) {
  let issuer = "";
  const server = await stub((req, res, url) => {
    if (url.pathname === "/.well-known/openid-configuration") return json(res, discovery(issuer));
    rest(req, res, url);
  });
  issuer = server.url;
  return { server, issuer };
}

const names = new Map<string, string[]>();
const resolveHost = async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = names.get(hostname);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const policy = () => ({ allowPrivateAddresses: false, httpsOnly: false, resolveHost, classifyAddress: publicLoopback });
const strict = () => createOidcClient({ ...policy(), timeoutMs: 2000 });
const settings = (issuer: string) => ({ issuer, clientId: "hearth", clientSecret: "client-secret-1", scopes: "openid" });
const FLOW = { state: "s", nonce: "n", codeVerifier: "v".repeat(50), redirectUri: "https://hearth.example/api/v1/auth/sso/callback" };
const REDEEM = { code: "code-1", codeVerifier: "v".repeat(50), redirectUri: FLOW.redirectUri, nonce: "n" };

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ reason: "accepted", message: "" }),
    (err: OidcError) => ({ reason: err.reason, message: err.message }),
  );

describe("SSO provider answers are capped", () => {
  it("cuts a huge discovery document (a 64 MiB issuer) off at the cap and fails at once", async () => {
    let transfer: ReturnType<typeof sendHugeIssuer> | undefined;
    const server = await stub((_req, res) => void (transfer = sendHugeIssuer(res, 64 * 1024 * 1024)));
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect(await failure(oidc.authorizationUrl(settings(server.url), FLOW))).toMatchObject({
      reason: "provider_invalid",
      message: expect.stringMatching(/larger than/),
    });
    await transfer?.closed;
    expect(transfer?.completed).toBe(false);
    expect(transfer?.written).toBeLessThan(16 * 1024 * 1024);
  });

  it("refuses a discovery document whose issuer is longer than any configured one", async () => {
    const { issuer } = await provider((at) => discoveryOf(`${at}/${"a".repeat(100_000)}`));
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect(await failure(oidc.authorizationUrl(settings(issuer), FLOW))).toMatchObject({
      reason: "provider_invalid",
      message: expect.stringMatching(/issuer/),
    });
  });

  it("cuts a huge token response off, and refuses an oversized ID token", async () => {
    let transfer: ReturnType<typeof sendHugeIssuer> | undefined;
    const huge = await provider(discoveryOf, (_req, res) => void (transfer = sendHugeIssuer(res, 64 * 1024 * 1024)));
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect(await failure(oidc.redeem(settings(huge.issuer), REDEEM))).toMatchObject({
      reason: "token_exchange_failed",
      message: expect.stringMatching(/larger than/),
    });
    await transfer?.closed;
    expect(transfer?.completed).toBe(false);

    const long = await provider(discoveryOf, (_req, res) => json(res, { id_token: `e30.${"a".repeat(100_000)}.sig` }));
    expect(await failure(oidc.redeem(settings(long.issuer), REDEEM))).toMatchObject({
      reason: "token_exchange_failed",
      message: expect.stringMatching(/id_token/),
    });
  });

  it("cuts a huge key set off", async () => {
    let transfer: ReturnType<typeof sendHugeIssuer> | undefined;
    const header = Buffer.from(JSON.stringify({ alg: "RS256", kid: "k1" })).toString("base64url");
    const { issuer } = await provider(discoveryOf, (_req, res, url) => {
      if (url.pathname === "/token") return json(res, { id_token: `${header}.e30.c2ln` });
      transfer = sendHugeIssuer(res, 64 * 1024 * 1024);
    });
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect((await failure(oidc.redeem(settings(issuer), REDEEM))).reason).toBe("invalid_id_token");
    await transfer?.closed;
    expect(transfer?.completed).toBe(false);
  });

  it("gives up on a provider that does not answer", async () => {
    const silent = await stub(() => undefined);
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false, timeoutMs: 200 });
    const timedOut = { reason: "provider_unreachable", message: expect.stringMatching(/no answer within 200 ms/) };
    expect(await failure(oidc.authorizationUrl(settings(silent.url), FLOW))).toMatchObject(timedOut);

    // Headers at once, then a byte now and then: the deadline covers the body too.
    const dripping = await stub((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 20);
      res.once("close", () => clearInterval(timer));
    });
    expect(await failure(oidc.authorizationUrl(settings(dripping.url), FLOW))).toMatchObject(timedOut);

    // A resolver that never answers, for an endpoint the discovery document names.
    const stuck = (name: string) => (name === "stuck.test" ? new Promise<LookupAddress[]>(() => undefined) : resolveHost(name));
    const hanging = createOidcClient({ ...policy(), resolveHost: stuck, timeoutMs: 200 });
    const { issuer } = await provider((at) => discoveryOf(at, { token_endpoint: "http://stuck.test/token" }));
    expect(await failure(hanging.authorizationUrl(settings(issuer), FLOW))).toMatchObject({
      reason: "provider_unreachable",
      message: expect.stringMatching(/did not resolve within 200 ms/),
    });
  });
});

describe("SSO provider requests reach public addresses only", () => {
  it.each([
    ["a loopback address", (trapUrl: string) => ({ token_endpoint: `${trapUrl}/token`, jwks_uri: `${trapUrl}/jwks` })],
    ["a private network address", () => ({ token_endpoint: "http://10.0.0.1/token" })],
    ["the cloud metadata address", () => ({ jwks_uri: "http://169.254.169.254/latest/meta-data/" })],
    ["an IPv4-mapped IPv6 loopback address", (trapUrl: string) => ({ token_endpoint: `http://[::ffff:${PRIVATE}]:${new URL(trapUrl).port}/token` })],
  ])("refuses a discovery document pointing the token or key endpoint at %s, and never calls it", async (_what, endpoints) => {
    const hidden = await trap();
    const { issuer } = await provider((at) => discoveryOf(at, endpoints(hidden.url)));
    const oidc = strict();
    const refused = await failure(oidc.redeem(settings(issuer), REDEEM));
    expect(refused).toMatchObject({ reason: "provider_refused", message: expect.stringMatching(/address/) });
    expect((await failure(oidc.authorizationUrl(settings(issuer), FLOW))).reason).toBe("provider_refused");
    expect(hidden.hits).toEqual([]);
  });

  it("refuses an issuer at a private address before sending anything", async () => {
    const hidden = await trap();
    const oidc = strict();
    expect(await failure(oidc.authorizationUrl(settings(hidden.url), FLOW))).toMatchObject({ reason: "provider_refused" });
    names.set("idp.internal.test", [PRIVATE]);
    expect((await failure(oidc.authorizationUrl(settings(`http://idp.internal.test:${hidden.port}`), FLOW))).reason).toBe("provider_refused");
    expect(hidden.hits).toEqual([]);
  });

  it("follows no redirect to a private address (by address or by a name that resolves to one)", async () => {
    const hidden = await trap();
    names.set("metadata.internal.test", [PRIVATE]);
    for (const target of [`${hidden.url}/.well-known/openid-configuration`, `http://metadata.internal.test:${hidden.port}/.well-known/openid-configuration`]) {
      const redirecting = await stub((_req, res) => void res.writeHead(302, { location: target }).end());
      expect(await failure(strict().authorizationUrl(settings(redirecting.url), FLOW))).toMatchObject({ reason: "provider_refused" });
    }
    expect(hidden.hits).toEqual([]);
  });

  it("never follows a redirect of the token endpoint (the client secret goes nowhere else)", async () => {
    const elsewhere = await stub((_req, res) => json(res, { id_token: "x" }));
    const { issuer } = await provider(discoveryOf, (_req, res) => void res.writeHead(307, { location: `${elsewhere.url}/token` }).end());
    const oidc = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect(await failure(oidc.redeem(settings(issuer), REDEEM))).toMatchObject({ reason: "token_exchange_failed", message: expect.stringMatching(/redirect/) });
    expect(elsewhere.hits).toEqual([]);
  });

  it("checks every address a name resolves to, and connects only to the address it checked (DNS rebinding)", async () => {
    const hidden = await trap();
    const { issuer, server } = await provider((at) => discoveryOf(at, { token_endpoint: `http://idp.rebinding.test:${hidden.port}/token` }));
    // One public and one private answer: refused, whichever would be tried first.
    names.set("idp.mixed.test", [PUBLIC, PRIVATE]);
    expect((await failure(strict().authorizationUrl(settings(`http://idp.mixed.test:${server.port}`), FLOW))).reason).toBe("provider_refused");

    // Public while the discovery document is read, private by the time the code is redeemed.
    names.set("idp.rebinding.test", [PUBLIC]);
    const oidc = strict();
    await oidc.authorizationUrl(settings(issuer), FLOW);
    names.set("idp.rebinding.test", [PRIVATE]);
    expect(await failure(oidc.redeem(settings(issuer), REDEEM))).toMatchObject({ reason: "provider_refused" });
    expect(hidden.hits).toEqual([]);
  });

  it("asks for https in production, for the issuer and every endpoint", async () => {
    const { issuer, server } = await provider(discoveryOf);
    const production = createOidcClient({ allowPrivateAddresses: true, httpsOnly: true });
    expect(await failure(production.authorizationUrl(settings(issuer), FLOW))).toMatchObject({
      reason: "provider_refused",
      message: expect.stringMatching(/https/),
    });
    expect(server.hits).toEqual([]);
  });

  it("allows private addresses when SSO_ALLOW_PRIVATE_ISSUERS says so, but never the metadata or link-local ones", async () => {
    const hidden = await trap();
    const { issuer } = await provider((at) => discoveryOf(at, { token_endpoint: `${hidden.url}/token` }));
    const relaxed = createOidcClient({ allowPrivateAddresses: true, httpsOnly: false });
    expect(await relaxed.authorizationUrl(settings(issuer), FLOW)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    const metadata = await provider((at) => discoveryOf(at, { jwks_uri: "http://169.254.169.254/latest/meta-data/" }));
    expect((await failure(relaxed.authorizationUrl(settings(metadata.issuer), FLOW))).reason).toBe("provider_refused");
  });
});

describe("checking an issuer when a provider is configured", () => {
  it("answers what is wrong with it, resolving its host", async () => {
    const oidc = strict();
    names.set("idp.example.test", [PUBLIC]);
    names.set("idp.internal.test", [PRIVATE]);
    expect(await oidc.issuerProblem("http://idp.example.test:8443/realms/home")).toBeNull();
    expect(await oidc.issuerProblem(`http://${PRIVATE}:8443`)).toMatch(/^Issuer .*loopback/);
    expect(await oidc.issuerProblem("http://idp.internal.test")).toMatch(/^Issuer .*loopback/);
    // Only the class: the address a name resolves to would tell a family admin the server's internal DNS.
    expect(await oidc.issuerProblem("http://idp.internal.test")).not.toContain(PRIVATE);
    expect(await oidc.issuerProblem("http://169.254.169.254")).toMatch(/^Issuer .*metadata/);
    expect(await oidc.issuerProblem("http://10.1.2.3")).toMatch(/^Issuer .*private/);
    expect(await oidc.issuerProblem("https://user:pass@idp.example.test")).toMatch(/^Issuer /);
    // A name that does not resolve yet is checked when it is used.
    expect(await oidc.issuerProblem("https://idp.not-yet.test")).toBeNull();
    const production = createOidcClient({ allowPrivateAddresses: true, httpsOnly: true });
    expect(await production.issuerProblem("http://127.0.0.1:8080")).toMatch(/^Issuer must be an https URL/);
    expect(await production.issuerProblem("https://127.0.0.1:8443")).toBeNull();
  });
});
