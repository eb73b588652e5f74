import { randomUUID } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { z } from "zod";
import { RoleSchema, ScopeSchema, UuidSchema, type Actor } from "@hearth/contracts";

const ISSUER = "hearth";
const AUDIENCE = "hearth-api";

const ClaimsSchema = z.object({ sub: UuidSchema, fam: UuidSchema, sid: UuidSchema, role: RoleSchema, scope: ScopeSchema });

export interface AccessTokenSubject {
  userId: string;
  familyId: string;
  role: Actor["role"];
  scope: z.infer<typeof ScopeSchema>;
  /** The session the token belongs to: revoking it ends the token at once. */
  sessionId: string;
}

/** Bearer access tokens: HS256 JWTs carrying user, family, session, role and scope, with expiry. */
export function createAccessTokens(secret: string, ttlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlSeconds,
    issue(subject: AccessTokenSubject, now = new Date()): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ fam: subject.familyId, sid: subject.sessionId, role: subject.role, scope: subject.scope })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(subject.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setJti(randomUUID())
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    /** Resolves to the actor, or null for any invalid, expired or malformed token. */
    async verify(token: string): Promise<Actor | null> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
        const claims = ClaimsSchema.parse(payload);
        return { userId: claims.sub, familyId: claims.fam, role: claims.role, scopes: [claims.scope], authMethod: "bearer", sessionId: claims.sid };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
