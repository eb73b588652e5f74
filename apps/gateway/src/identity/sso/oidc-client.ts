import { trimTrailing } from "@hearth/contracts";
import { createHash } from "node:crypto";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { z } from "zod";

const TIMEOUT_MS = 5000;
const DISCOVERY_TTL_MS = 10 * 60_000;

const DiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
type Discovery = z.infer<typeof DiscoverySchema>;

const TokenResponseSchema = z.object({ id_token: z.string() });

/** Why a sign-in with a provider failed; recorded in the audit log, never shown in detail to the browser. */
export type OidcFailure = "provider_unreachable" | "token_exchange_failed" | "invalid_id_token" | "id_token_expired" | "nonce_mismatch";

export class OidcError extends Error {
  constructor(
    readonly reason: OidcFailure,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = "OidcError";
  }
}

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export type IdTokenClaims = JWTPayload & { sub: string };

/** RFC 7636 S256: the challenge sent with the authorization request for the verifier kept here. */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

const normalise = (issuer: string) => trimTrailing(issuer, "/");

/**
 * Checks an ID token (OpenID Connect Core 3.1.3.7): signature against the provider's keys,
 * issuer, audience, expiry, and the nonce of this flow. Answers the claims or throws OidcError.
 */
export async function verifyIdToken(
  idToken: string,
  expected: { keys: JWTVerifyGetKey; issuer: string; clientId: string; nonce: string; currentDate?: Date },
): Promise<IdTokenClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, expected.keys, {
      issuer: [normalise(expected.issuer), `${normalise(expected.issuer)}/`],
      audience: expected.clientId,
      algorithms: ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"],
      clockTolerance: 30,
      requiredClaims: ["sub", "iat", "exp"],
      ...(expected.currentDate ? { currentDate: expected.currentDate } : {}),
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new OidcError("id_token_expired", err.message);
    throw new OidcError("invalid_id_token", err instanceof Error ? err.message : String(err));
  }
  if (payload["nonce"] !== expected.nonce) throw new OidcError("nonce_mismatch", "the ID token's nonce is not this sign-in's");
  return payload as IdTokenClaims;
}

/** The relying-party side of the authorization code flow with PKCE; discovery and keys cached per issuer. */
export function createOidcClient() {
  const providers = new Map<string, { discovery: Discovery; keys: JWTVerifyGetKey; fetchedAt: number }>();

  async function discover(issuer: string) {
    const cached = providers.get(issuer);
    if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached;
    let discovery: Discovery;
    try {
      const res = await fetch(`${normalise(issuer)}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      discovery = DiscoverySchema.parse(await res.json());
    } catch (err) {
      throw new OidcError("provider_unreachable", err instanceof Error ? err.message : String(err));
    }
    if (normalise(discovery.issuer) !== normalise(issuer)) throw new OidcError("provider_unreachable", `discovery names issuer ${discovery.issuer}`);
    const entry = { discovery, keys: createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: TIMEOUT_MS }), fetchedAt: Date.now() };
    providers.set(issuer, entry);
    return entry;
  }

  return {
    async authorizationUrl(
      settings: Omit<OidcClientSettings, "clientSecret">,
      flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
    ): Promise<string> {
      const { discovery } = await discover(settings.issuer);
      const url = new URL(discovery.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: settings.clientId,
        redirect_uri: flow.redirectUri,
        scope: settings.scopes,
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: pkceChallenge(flow.codeVerifier),
        code_challenge_method: "S256",
      }).toString();
      return url.toString();
    },

    /** Redeems the code at the token endpoint (client_secret_basic) and verifies the ID token it answers. */
    async redeem(settings: OidcClientSettings, flow: { code: string; codeVerifier: string; redirectUri: string; nonce: string }): Promise<IdTokenClaims> {
      const { discovery, keys } = await discover(settings.issuer);
      const basic = Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString("base64");
      let idToken: string;
      try {
        const res = await fetch(discovery.token_endpoint, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}`, accept: "application/json" },
          body: new URLSearchParams({ grant_type: "authorization_code", code: flow.code, redirect_uri: flow.redirectUri, code_verifier: flow.codeVerifier }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const body: unknown = await res.json().catch(() => null);
        if (!res.ok) throw new Error(`token endpoint answered ${res.status} ${JSON.stringify(body)}`);
        idToken = TokenResponseSchema.parse(body).id_token;
      } catch (err) {
        throw new OidcError("token_exchange_failed", err instanceof Error ? err.message : String(err));
      }
      return verifyIdToken(idToken, { keys, issuer: settings.issuer, clientId: settings.clientId, nonce: flow.nonce });
    },
  };
}
export type OidcClient = ReturnType<typeof createOidcClient>;
