import type { Role } from "@hearth/contracts";
import type { IdentityTx } from "../../db";
import { randomSecret, sha256 } from "../../crypto/secrets";
import type { DeviceFacts, SessionRepository } from "../sessions/session-repository";
import type { AccessTokens } from "./access-tokens";
import { toTokenResource } from "./auth-resource";

/**
 * A sign-in starts a new session on its device, ending the user's earlier sessions there (Sure
 * revokes a device's tokens when it signs in again); a refresh continues the session it belongs to.
 */
export type SessionRef = { device: DeviceFacts } | { sessionId: string };

/** A refresh's pair, fixed in advance (refresh-rotation) instead of random. */
export interface DerivedPair {
  refreshToken: string;
  jti: string;
}

/**
 * Issues an access token and a fresh refresh token (stored hashed) inside the caller's
 * transaction, both bound to one session.
 */
export function createTokenIssuer(sessions: SessionRepository, accessTokens: AccessTokens, refreshTtlDays: number) {
  return async (tx: IdentityTx, subject: { userId: string; familyId: string; role: Role }, session: SessionRef, now = new Date(), derived?: DerivedPair) => {
    let sessionId: string;
    if ("sessionId" in session) sessionId = session.sessionId;
    else {
      await sessions.revokeDevice(tx, subject.userId, session.device.device_id, now);
      sessionId = await sessions.create(tx, subject.userId, session.device);
    }
    const refreshToken = derived?.refreshToken ?? randomSecret("hrt_");
    const refreshTokenId = await sessions.createRefreshToken(tx, {
      userId: subject.userId,
      sessionId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(now.getTime() + refreshTtlDays * 86_400_000),
      createdAt: now,
    });
    const response = await answerOf(accessTokens, { ...subject, sessionId }, refreshToken, now, derived?.jti);
    return { sessionId, refreshTokenId, response };
  };
}
export type TokenIssuer = ReturnType<typeof createTokenIssuer>;

/** The token answer of a pair issued at `issuedAt`: the same inputs give the same answer. */
export async function answerOf(
  accessTokens: AccessTokens,
  subject: { userId: string; familyId: string; role: Role; sessionId: string },
  refreshToken: string,
  issuedAt: Date,
  jti?: string,
) {
  const accessToken = await accessTokens.issue({ ...subject, scope: "read_write" }, issuedAt, jti);
  return toTokenResource(accessToken, refreshToken, accessTokens.ttlSeconds, issuedAt);
}
