import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { startOidcProvider, type OidcTestClient, type TestOidcProvider } from "../src/oidc-provider";

// A relying party written with plain fetch and crypto, so the provider is tested as any client would use it.

const basicClient: OidcTestClient = { client_id: "hearth-gateway", client_secret: "gateway-secret", redirect_uris: ["http://127.0.0.1:4999/auth/callback"] };
const postClient: OidcTestClient = {
  client_id: "hearth-post",
  client_secret: "post-secret",
  redirect_uris: ["http://127.0.0.1:4998/cb"],
  token_endpoint_auth_method: "client_secret_post",
};
const alice = {
  sub: "alice",
  email: "alice@example.test",
  email_verified: true,
  given_name: "Alice",
  family_name: "Hearth",
  groups: ["household-admins", "finance"],
};

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  code_challenge_methods_supported: string[];
  id_token_signing_alg_values_supported: string[];
  claims_supported: string[];
  scopes_supported: string[];
}

interface TokenResponse {
  id_token?: string;
  access_token?: string;
  error?: string;
}

const idTokenTtlSeconds = 300;
let provider: TestOidcProvider;
let discovery: Discovery;
const consoleSpies: MockInstance[] = [];

beforeAll(async () => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) consoleSpies.push(vi.spyOn(console, method));
  provider = await startOidcProvider({ clients: [basicClient, postClient], users: [alice], idTokenTtlSeconds });
  discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Discovery;
});

afterAll(async () => {
  await provider?.stop();
  for (const spy of consoleSpies) spy.mockRestore();
});

const base64url = (bytes: Buffer) => bytes.toString("base64url");

function loginRequest(client: OidcTestClient, scope: string, { pkce = true } = {}) {
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const nonce = base64url(randomBytes(16));
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    scope,
    state,
    nonce,
    ...(pkce ? { code_challenge: base64url(createHash("sha256").update(verifier).digest()), code_challenge_method: "S256" } : {}),
  }).toString();
  return { url: url.toString(), verifier, state, nonce };
}

async function redeem(client: OidcTestClient, code: string, verifier: string): Promise<{ status: number; body: TokenResponse }> {
  const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (client.token_endpoint_auth_method === "client_secret_post") {
    form.set("client_id", client.client_id);
    form.set("client_secret", client.client_secret);
  } else {
    // RFC 6749 §2.3.1: form-encode id and secret before base64.
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  const response = await fetch(discovery.token_endpoint, { method: "POST", headers, body: form });
  return { status: response.status, body: (await response.json()) as TokenResponse };
}

async function verifyIdToken(idToken: string, client: OidcTestClient) {
  const jwks = createRemoteJWKSet(new URL(discovery.jwks_uri));
  return jwtVerify(idToken, jwks, { issuer: provider.issuer, audience: client.client_id, algorithms: ["RS256"] });
}

describe("startOidcProvider", () => {
  it("serves discovery on a loopback http issuer with S256 PKCE, RS256 and a groups claim", () => {
    expect(provider.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(discovery.issuer).toBe(provider.issuer);
    expect(discovery.code_challenge_methods_supported).toEqual(["S256"]);
    expect(discovery.id_token_signing_alg_values_supported).toContain("RS256");
    expect(discovery.scopes_supported).toEqual(expect.arrayContaining(["openid", "email", "profile", "groups"]));
    expect(discovery.claims_supported).toEqual(expect.arrayContaining(["email", "email_verified", "given_name", "family_name", "groups"]));
  });

  it("walks the code flow with PKCE and issues an ID token verifiable against the JWKS (client_secret_basic)", async () => {
    const login = loginRequest(basicClient, "openid email profile");
    const callback = await provider.authorize(login.url, alice.sub);

    expect(`${callback.origin}${callback.pathname}`).toBe(basicClient.redirect_uris[0]);
    expect(callback.searchParams.get("state")).toBe(login.state);
    expect(callback.searchParams.get("iss")).toBe(provider.issuer);
    const code = callback.searchParams.get("code");
    expect(code).toBeTruthy();

    const tokens = await redeem(basicClient, code!, login.verifier);
    expect(tokens.status).toBe(200);
    const { payload, protectedHeader } = await verifyIdToken(tokens.body.id_token!, basicClient);
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({
      sub: alice.sub,
      nonce: login.nonce,
      email: alice.email,
      email_verified: true,
      given_name: "Alice",
      family_name: "Hearth",
      groups: alice.groups,
    });
    expect(payload.exp! - payload.iat!).toBe(idTokenTtlSeconds);

    const userinfo = await fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(await userinfo.json()).toMatchObject({ sub: alice.sub, email: alice.email, groups: alice.groups });
  });

  it("serves users added later, with groups under the groups scope alone (client_secret_post)", async () => {
    provider.addUser({ sub: "bob", email: "bob@example.test", groups: ["members"] });
    const login = loginRequest(postClient, "openid groups");
    const callback = await provider.authorize(login.url, "bob");

    const tokens = await redeem(postClient, callback.searchParams.get("code")!, login.verifier);
    expect(tokens.status).toBe(200);
    const { payload } = await verifyIdToken(tokens.body.id_token!, postClient);
    expect(payload).toMatchObject({ sub: "bob", nonce: login.nonce, groups: ["members"] });
    expect(payload.email).toBeUndefined();
  });

  it("refuses a code redeemed with the wrong code_verifier", async () => {
    const login = loginRequest(basicClient, "openid email");
    const callback = await provider.authorize(login.url, alice.sub);

    const tokens = await redeem(basicClient, callback.searchParams.get("code")!, base64url(randomBytes(32)));
    expect(tokens.status).toBe(400);
    expect(tokens.body.error).toBe("invalid_grant");
    expect(tokens.body.id_token).toBeUndefined();
  });

  it("requires PKCE: an authorization request without code_challenge comes back with an error", async () => {
    const login = loginRequest(basicClient, "openid", { pkce: false });
    const callback = await provider.authorize(login.url, alice.sub);

    expect(callback.searchParams.get("error")).toBe("invalid_request");
    expect(callback.searchParams.get("code")).toBeNull();
    expect(callback.searchParams.get("state")).toBe(login.state);
  });

  it("answers access_denied for an unknown user", async () => {
    const login = loginRequest(basicClient, "openid");
    const callback = await provider.authorize(login.url, "nobody");

    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(login.state);
  });

  it("says nothing on the console", () => {
    for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
  });
});
