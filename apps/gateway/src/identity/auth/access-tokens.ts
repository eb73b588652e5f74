import { randomUUID } from "node:crypto";
import { SignJWT, errors, jwtVerify, type JWTHeaderParameters } from "jose";
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

export interface SigningKey {
  kid: string;
  secret: string;
}

/**
 * Signing keys: tokens are signed with `active` and name it in their `kid` header; `previous`
 * keys still verify the tokens they signed, so a key can be rotated without logging anyone
 * out (make a new key active, keep the old one as previous until its tokens have expired).
 */
export interface SigningKeyRing {
  active: SigningKey;
  previous: SigningKey[];
}

/** Bearer access tokens: HS256 JWTs carrying user, family, session, role and scope, with expiry. */
export function createAccessTokens(keys: SigningKeyRing, ttlSeconds: number) {
  const encode = (secret: string) => new TextEncoder().encode(secret);
  const verifying = new Map([keys.active, ...keys.previous].map((key) => [key.kid, encode(key.secret)]));
  const signing = encode(keys.active.secret);
  const keyOf = (header: JWTHeaderParameters) => {
    const key = header.kid === undefined ? undefined : verifying.get(header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return key;
  };

  return {
    ttlSeconds,
    /** `jti` is given for a refresh's token (recomputed from the refresh token: see refresh-rotation). */
    issue(subject: AccessTokenSubject, now = new Date(), jti: string = randomUUID()): Promise<string> {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ fam: subject.familyId, sid: subject.sessionId, role: subject.role, scope: subject.scope })
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: keys.active.kid })
        .setSubject(subject.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setJti(jti)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(signing);
    },
    /** Resolves to the actor, or null for any invalid, expired, malformed or unknown-key token. */
    async verify(token: string): Promise<Actor | null> {
      try {
        const { payload } = await jwtVerify(token, keyOf, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
        const claims = ClaimsSchema.parse(payload);
        return { userId: claims.sub, familyId: claims.fam, role: claims.role, scopes: [claims.scope], authMethod: "bearer", sessionId: claims.sid };
      } catch {
        return null;
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
