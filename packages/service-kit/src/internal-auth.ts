import { SignJWT, jwtVerify } from "jose";
import { InternalContextSchema, RequestIdSchema, type InternalContext } from "@hearth/contracts";

export const INTERNAL_AUTH_HEADER = "x-hearth-internal";
const ISSUER = "hearth-internal";
const LIFETIME_SECONDS = 60;
/** A token is reused for this long, so it always has at least half its life left when sent. */
const REUSE_SECONDS = LIFETIME_SECONDS / 2;
const MAX_CACHED = 10_000;
const REQUEST_ID_PARAM = "; request-id=";

/** The token part of the internal header (`<jwt>; request-id=<id>`), whatever the id holds. */
export function internalTokenOf(header: string): string {
  const at = header.indexOf(REQUEST_ID_PARAM);
  return at === -1 ? header : header.slice(0, at);
}

/**
 * Internal calls carry the verified request context: who calls, and for which user and family,
 * as a short-lived HS256 JWT addressed to one service (a service reached without one, or with one
 * meant for another service, refuses). The header is `<jwt>; request-id=<id>`: the request id is
 * a correlation id, not an authority, so it travels beside the token rather than in it, and one
 * token serves every request of the same caller and actor for half its life. Signing and
 * verifying then happen about once a minute per actor instead of twice per request.
 */
export function createInternalSigner(secret: string, caller: string) {
  const key = new TextEncoder().encode(secret);
  const tokens = new Map<string, { token: Promise<string>; reuseUntil: number }>();
  return async (audience: string, context: Omit<InternalContext, "caller">, now = Date.now()): Promise<string> => {
    const cacheKey = `${audience}\n${JSON.stringify(context.actor)}`;
    let cached = tokens.get(cacheKey);
    if (!cached || cached.reuseUntil <= now) {
      const token = new SignJWT({ ctx: { caller, actor: context.actor } })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(now / 1000) + LIFETIME_SECONDS)
        .sign(key);
      cached = { token, reuseUntil: now + REUSE_SECONDS * 1000 };
      token.catch(() => tokens.delete(cacheKey));
      if (tokens.size >= MAX_CACHED) tokens.clear();
      tokens.set(cacheKey, cached);
    }
    return `${await cached.token}${REQUEST_ID_PARAM}${context.requestId}`;
  };
}

/** Verifies the internal header; a token already verified is trusted from memory until it expires. */
export function createInternalVerifier(secret: string, audience: string) {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { context: Omit<InternalContext, "requestId">; expiresAt: number }>();
  return async (header: string, now = Date.now()): Promise<InternalContext> => {
    const split = header.indexOf(REQUEST_ID_PARAM);
    const token = split < 0 ? header : header.slice(0, split);
    const requestId = RequestIdSchema.parse(split < 0 ? "" : header.slice(split + REQUEST_ID_PARAM.length));
    let entry = verified.get(token);
    if (entry && entry.expiresAt <= now) {
      verified.delete(token);
      entry = undefined;
    }
    if (!entry) {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ["HS256"], clockTolerance: 5, currentDate: new Date(now) });
      const context = InternalContextSchema.omit({ requestId: true }).parse(payload.ctx);
      entry = { context, expiresAt: (payload.exp ?? 0) * 1000 };
      if (verified.size >= MAX_CACHED) verified.clear();
      verified.set(token, entry);
    }
    return { ...entry.context, requestId };
  };
}
