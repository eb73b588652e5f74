import { createRemoteJWKSet, decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, type TestOidcProvider } from "@hearth/test-kit";
import { createOidcClient, verifyIdToken, type OidcError } from "../src/identity/sso/oidc-client";

// Real ID tokens from a real provider (oidc-provider), checked by the gateway's verifier.
const REDIRECT = "http://127.0.0.1:4999/api/v1/auth/sso/callback";
const client = { client_id: "hearth", client_secret: "client-secret-1", redirect_uris: [REDIRECT] };
/** The test provider listens on loopback: private addresses allowed, as SSO_ALLOW_PRIVATE_ISSUERS does. */
const LOCAL = { allowPrivateAddresses: true, httpsOnly: false };
let provider: TestOidcProvider;
let settings: { issuer: string; clientId: string; clientSecret: string; scopes: string };

beforeAll(async () => {
  provider = await startOidcProvider({ clients: [client], users: [{ sub: "alice", email: "alice@example.test", email_verified: true, groups: ["admins"] }] });
  settings = { issuer: provider.issuer, clientId: client.client_id, clientSecret: client.client_secret, scopes: "openid email profile" };
});
afterAll(async () => provider?.stop());

/** Walks the code flow with the gateway's client and answers the raw ID token the provider issued for `nonce`. */
async function idTokenFor(nonce: string): Promise<string> {
  const codeVerifier = "v".repeat(50);
  const url = await createOidcClient(LOCAL).authorizationUrl(settings, { state: "state-1", nonce, codeVerifier, redirectUri: REDIRECT });
  const back = await provider.authorize(url, "alice");
  const res = await fetch(`${provider.issuer}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("hearth:client-secret-1").toString("base64")}` },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: REDIRECT,
      code_verifier: codeVerifier,
    }),
  });
  return ((await res.json()) as { id_token: string }).id_token;
}

const keys = () => createRemoteJWKSet(new URL(`${provider.issuer}/jwks`));
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (err: OidcError) => err.reason,
  );

describe("ID token verification", () => {
  it("accepts the provider's token for this client and nonce, with its claims", async () => {
    const claims = await verifyIdToken(await idTokenFor("nonce-a"), { keys: keys(), issuer: provider.issuer, clientId: "hearth", nonce: "nonce-a" });
    expect(claims).toMatchObject({ sub: "alice", email: "alice@example.test", groups: ["admins"] });
  });

  it("refuses a tampered token (payload changed, signature kept)", async () => {
    const [header, payload, signature] = (await idTokenFor("nonce-b")).split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "mallory" })).toString("base64url");
    expect(
      await reasonOf(verifyIdToken(`${header}.${forged}.${signature}`, { keys: keys(), issuer: provider.issuer, clientId: "hearth", nonce: "nonce-b" })),
    ).toBe("invalid_id_token");
  });

  it("refuses a token of another sign-in (wrong nonce), another client, or another issuer", async () => {
    const token = await idTokenFor("nonce-c");
    const expected = { keys: keys(), issuer: provider.issuer, clientId: "hearth", nonce: "nonce-c" };
    expect(await reasonOf(verifyIdToken(token, { ...expected, nonce: "nonce-of-another-flow" }))).toBe("nonce_mismatch");
    expect(await reasonOf(verifyIdToken(token, { ...expected, clientId: "another-client" }))).toBe("invalid_id_token");
    expect(await reasonOf(verifyIdToken(token, { ...expected, issuer: "http://127.0.0.1:1/" }))).toBe("invalid_id_token");
  });

  it("refuses an expired token", async () => {
    const token = await idTokenFor("nonce-d");
    const exp = decodeJwt(token).exp ?? 0;
    const afterExpiry = new Date((exp + 60) * 1000);
    expect(
      await reasonOf(verifyIdToken(token, { keys: keys(), issuer: provider.issuer, clientId: "hearth", nonce: "nonce-d", currentDate: afterExpiry })),
    ).toBe("id_token_expired");
  });

  it("redeems a code end to end, and refuses a code redeemed with another flow's PKCE verifier", async () => {
    const oidc = createOidcClient(LOCAL);
    const url = await oidc.authorizationUrl(settings, { state: "s", nonce: "n1", codeVerifier: "a".repeat(50), redirectUri: REDIRECT });
    const code = (await provider.authorize(url, "alice")).searchParams.get("code") ?? "";
    expect(await reasonOf(oidc.redeem(settings, { code, codeVerifier: "b".repeat(50), redirectUri: REDIRECT, nonce: "n1" }))).toBe("token_exchange_failed");
    const url2 = await oidc.authorizationUrl(settings, { state: "s2", nonce: "n2", codeVerifier: "c".repeat(50), redirectUri: REDIRECT });
    const code2 = (await provider.authorize(url2, "alice")).searchParams.get("code") ?? "";
    expect(await oidc.redeem(settings, { code: code2, codeVerifier: "c".repeat(50), redirectUri: REDIRECT, nonce: "n2" })).toMatchObject({ sub: "alice" });
  });
});
