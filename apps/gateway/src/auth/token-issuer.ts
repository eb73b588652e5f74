import type { Role } from "@hearth/contracts";
import type { IdentityTx } from "../db";
import type { AccessTokens } from "./access-tokens";
import { randomSecret, sha256 } from "./secrets";

export interface DeviceFacts {
  device_id: string;
  device_name?: string | undefined;
  device_type?: string | undefined;
}

/** A login starts a new session on its device; a refresh continues the session it belongs to. */
export type SessionRef = { device: DeviceFacts } | { sessionId: string };

/**
 * Issues an access token and a fresh refresh token (stored hashed) inside the caller's
 * transaction, both bound to one session.
 */
export function createTokenIssuer(accessTokens: AccessTokens, refreshTtlDays: number) {
  return async (tx: IdentityTx, subject: { userId: string; familyId: string; role: Role }, session: SessionRef, now = new Date()) => {
    const sessionId =
      "sessionId" in session
        ? session.sessionId
        : (
            await tx.session.create({
              data: {
                userId: subject.userId,
                deviceId: session.device.device_id,
                deviceName: session.device.device_name ?? null,
                deviceType: session.device.device_type ?? null,
              },
            })
          ).id;
    const refreshToken = randomSecret("hrt_");
    const stored = await tx.refreshToken.create({
      data: { userId: subject.userId, sessionId, tokenHash: sha256(refreshToken), expiresAt: new Date(now.getTime() + refreshTtlDays * 86_400_000) },
    });
    const accessToken = await accessTokens.issue({ ...subject, sessionId, scope: "read_write" }, now);
    return {
      sessionId,
      refreshTokenId: stored.id,
      response: {
        access_token: accessToken,
        refresh_token: refreshToken,
        token_type: "Bearer" as const,
        expires_in: accessTokens.ttlSeconds,
        created_at: Math.floor(now.getTime() / 1000),
      },
    };
  };
}
export type TokenIssuer = ReturnType<typeof createTokenIssuer>;
