import { trimTrailing } from "@hearth/contracts";
import { MAX_URL_LENGTH, OutboundRefused, OutboundTooLarge, createOutboundHttp, type OutboundPolicy, type OutboundResponse } from "@hearth/service-kit";
import { createHash } from "node:crypto";
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type FetchImplementation, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { z } from "zod";

const TIMEOUT_MS = 5000;
const DISCOVERY_TTL_MS = 10 * 60_000;
/** Discovery documents, key sets and token responses are a few KiB; a larger answer is cut off here and refused. */
export const MAX_PROVIDER_ANSWER_BYTES = 256 * 1024;
/** A real ID token is a few KiB (one with 200 groups about 10 KiB). */
export const MAX_ID_TOKEN_LENGTH = 64 * 1024;
/** OpenID Connect Core 2: `sub` is at most 255 ASCII characters. */
const MAX_SUBJECT_LENGTH = 255;
const DISCOVERY_REDIRECTS = 3;

const Endpoint = z.string().max(MAX_URL_LENGTH);
const DiscoverySchema = z.object({
  issuer: Endpoint,
  authorization_endpoint: Endpoint,
  token_endpoint: Endpoint,
  jwks_uri: Endpoint,
});
type Discovery = z.infer<typeof DiscoverySchema>;

const TokenResponseSchema = z.object({ id_token: z.string().max(MAX_ID_TOKEN_LENGTH) });

/** Why a sign-in with a provider failed; recorded in the audit log, never shown in detail to the browser. */
export type OidcFailure =
  /** A URL of the provider (or a redirect, or what its host resolves to) is not allowed: nothing was sent there. */
  | "provider_refused"
  /** The provider answered something unusable: too large, not JSON, another issuer, a bad endpoint. */
  | "provider_invalid"
  | "provider_unreachable"
  | "token_exchange_failed"
  | "invalid_id_token"
  | "id_token_expired"
  | "nonce_mismatch";

export class OidcError extends Error {
  constructor(
    readonly reason: OidcFailure,
    /** What went wrong, for an admin (it may name the provider's URLs and addresses). */
    readonly detail: string,
    /** A refusal that SSO_ALLOW_PRIVATE_ISSUERS would lift. */
    readonly privateAddress = false,
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

export interface OidcClientOptions extends OutboundPolicy {
  /** For each request to the provider, its answer included; 5 s unless set. */
  timeoutMs?: number;
}

export type IdTokenClaims = JWTPayload & { sub: string };

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
const issuesOf = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ");

/** A refused request as the OidcError of its step; any other error as `otherwise`. */
function oidcErrorOf(err: unknown, what: string, otherwise: OidcFailure): OidcError {
  if (err instanceof OidcError) return err;
  if (err instanceof OutboundRefused) return new OidcError("provider_refused", `${what} ${err.message}`, err.privateAddress);
  // Too large an answer came from a provider that was reached: at discovery, an invalid one.
  if (err instanceof OutboundTooLarge) return new OidcError(otherwise === "provider_unreachable" ? "provider_invalid" : otherwise, `${what}: ${err.message}`);
  return new OidcError(otherwise, `${what}: ${messageOf(err)}`);
}

/** The JSON of an answer, or OidcError(`reason`). */
function jsonOf(res: OutboundResponse, what: string, reason: OidcFailure): unknown {
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    throw new OidcError(reason, `${what} is not JSON`);
  }
}

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
    // The key set is fetched on the way: a refusal there is the provider's, not the token's.
    if (err instanceof OutboundRefused) throw new OidcError("provider_refused", `The key set ${err.message}`, err.privateAddress);
    throw new OidcError("invalid_id_token", messageOf(err));
  }
  if (payload["nonce"] !== expected.nonce) throw new OidcError("nonce_mismatch", "the ID token's nonce is not this sign-in's");
  if (typeof payload.sub !== "string" || payload.sub.length > MAX_SUBJECT_LENGTH) {
    throw new OidcError("invalid_id_token", `sub must be text of at most ${MAX_SUBJECT_LENGTH} characters`);
  }
  return payload as IdTokenClaims;
}

/**
 * The relying-party side of the authorization code flow with PKCE; discovery and keys cached per
 * issuer. Every request to the provider goes through the outbound policy (public addresses only
 * unless allowed, https in production, no redirect to a refused address), with a deadline and
 * its answer capped at MAX_PROVIDER_ANSWER_BYTES.
 */
export function createOidcClient(options: OidcClientOptions) {
  const http = createOutboundHttp(options);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  type Entry = { discovery: Discovery; keys: JWTVerifyGetKey; fetchedAt: number };
  const providers = new Map<string, Entry>();
  /** Discoveries under way: concurrent sign-ins at one provider wait for the same one. */
  const loading = new Map<string, Promise<Entry>>();

  /** jose fetches the key set through this: the same policy and cap as every other request. */
  const fetchKeys: FetchImplementation = async (url, init) => {
    const res = await http.fetch(url, { maxBytes: MAX_PROVIDER_ANSWER_BYTES, timeoutMs, headers: { accept: "application/json" }, signal: init.signal });
    return new Response(new Uint8Array(res.body), { status: res.status });
  };

  async function fetchDiscovery(issuer: string): Promise<Entry> {
    let res: OutboundResponse;
    try {
      res = await http.fetch(`${normalise(issuer)}/.well-known/openid-configuration`, {
        maxBytes: MAX_PROVIDER_ANSWER_BYTES,
        timeoutMs,
        maxRedirects: DISCOVERY_REDIRECTS,
        headers: { accept: "application/json" },
      });
    } catch (err) {
      throw oidcErrorOf(err, "The issuer's discovery document", "provider_unreachable");
    }
    if (res.status !== 200) throw new OidcError("provider_unreachable", `discovery answered ${res.status}`);
    const parsed = DiscoverySchema.safeParse(jsonOf(res, "The discovery document", "provider_invalid"));
    if (!parsed.success) throw new OidcError("provider_invalid", `discovery document: ${issuesOf(parsed.error)}`);
    const discovery = parsed.data;
    if (normalise(discovery.issuer) !== normalise(issuer)) throw new OidcError("provider_invalid", `discovery names another issuer, ${discovery.issuer}`);
    // The browser goes to the authorization endpoint; the gateway itself calls the other two.
    const endpoints: [string, string, boolean][] = [
      ["authorization endpoint", discovery.authorization_endpoint, false],
      ["token endpoint", discovery.token_endpoint, true],
      ["key set", discovery.jwks_uri, true],
    ];
    for (const [what, url, called] of endpoints) {
      try {
        if (called) await http.checkDestination(url, timeoutMs);
        else http.checkUrl(url);
      } catch (err) {
        throw oidcErrorOf(err, `The ${what} ${url}`, "provider_unreachable");
      }
    }
    const keys = createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: timeoutMs, [customFetch]: fetchKeys });
    return { discovery, keys, fetchedAt: Date.now() };
  }

  async function discover(issuer: string): Promise<Entry> {
    const cached = providers.get(issuer);
    if (cached && Date.now() - cached.fetchedAt < DISCOVERY_TTL_MS) return cached;
    let pending = loading.get(issuer);
    if (!pending) {
      pending = fetchDiscovery(issuer)
        .then((entry) => (providers.set(issuer, entry), entry))
        .finally(() => loading.delete(issuer));
      loading.set(issuer, pending);
    }
    return pending;
  }

  return {
    /**
     * What is wrong with an issuer an admin configures ("Issuer resolves to a loopback address
     * (…)"), or null. Its host is resolved now; one that does not resolve (yet) is let through:
     * every request checks again.
     */
    async issuerProblem(issuer: string): Promise<string | null> {
      try {
        const url = http.checkUrl(issuer);
        if (url.search || url.hash) return "Issuer must not contain a query or fragment";
        await http.checkDestination(issuer, timeoutMs);
      } catch (err) {
        if (!(err instanceof OutboundRefused)) return null;
        const hint = err.privateAddress ? "; the server's operator may allow private addresses with SSO_ALLOW_PRIVATE_ISSUERS" : "";
        return `Issuer ${err.message}${hint}`;
      }
      return null;
    },

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
      let res: OutboundResponse;
      try {
        // A POST: no redirect is followed, so the client secret goes to the token endpoint only.
        res = await http.fetch(discovery.token_endpoint, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}`, accept: "application/json" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: flow.code,
            redirect_uri: flow.redirectUri,
            code_verifier: flow.codeVerifier,
          }).toString(),
          maxBytes: MAX_PROVIDER_ANSWER_BYTES,
          timeoutMs,
        });
      } catch (err) {
        throw oidcErrorOf(err, "The token endpoint", "token_exchange_failed");
      }
      if (res.status >= 300 && res.status < 400)
        throw new OidcError("token_exchange_failed", `the token endpoint answered a redirect (${res.status}), not followed`);
      const body = jsonOf(res, "The token response", "token_exchange_failed");
      if (res.status !== 200) throw new OidcError("token_exchange_failed", `token endpoint answered ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      const parsed = TokenResponseSchema.safeParse(body);
      if (!parsed.success) throw new OidcError("token_exchange_failed", `token response: ${issuesOf(parsed.error)}`);
      return verifyIdToken(parsed.data.id_token, { keys, issuer: settings.issuer, clientId: settings.clientId, nonce: flow.nonce });
    },
  };
}
export type OidcClient = ReturnType<typeof createOidcClient>;
