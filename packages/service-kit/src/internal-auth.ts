import { SignJWT, jwtVerify } from "jose";
import { InternalContextSchema, type InternalContext } from "@hearth/contracts";

export const INTERNAL_AUTH_HEADER = "x-hearth-internal";
const ISSUER = "hearth-internal";
const LIFETIME_SECONDS = 60;

/**
 * Internal calls carry the verified request context as a short-lived HS256 JWT addressed to
 * one service: a service reached without one, or with one meant for another service, refuses.
 */
export function createInternalSigner(secret: string, caller: string) {
  const key = new TextEncoder().encode(secret);
  return async (audience: string, context: Omit<InternalContext, "caller">): Promise<string> =>
    new SignJWT({ ctx: { ...context, caller } })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${LIFETIME_SECONDS}s`)
      .sign(key);
}

export function createInternalVerifier(secret: string, audience: string) {
  const key = new TextEncoder().encode(secret);
  return async (token: string): Promise<InternalContext> => {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ["HS256"], clockTolerance: 5 });
    return InternalContextSchema.parse(payload.ctx);
  };
}
