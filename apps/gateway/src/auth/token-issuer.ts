import type { Role } from "@hearth/contracts";
import type { IdentityTx } from "../db";
import type { AccessTokens } from "./access-tokens";
import { randomSecret, sha256 } from "./secrets";

export interface DeviceFacts {
  device_id: string;
  device_name?: string | undefined;
  device_type?: string | undefined;
}

/** Issues an access token and a fresh refresh token (stored hashed) inside the caller's transaction. */
export function createTokenIssuer(accessTokens: AccessTokens, refreshTtlDays: number) {
  return async (tx: IdentityTx, subject: { userId: string; familyId: string; role: Role }, device: DeviceFacts, now = new Date()) => {
    const refreshToken = randomSecret("hrt_");
    const stored = await tx.refreshToken.create({
      data: {
        userId: subject.userId,
        tokenHash: sha256(refreshToken),
        deviceId: device.device_id,
        deviceName: device.device_name ?? null,
        deviceType: device.device_type ?? null,
        expiresAt: new Date(now.getTime() + refreshTtlDays * 86_400_000),
      },
    });
    const accessToken = await accessTokens.issue({ ...subject, scope: "read_write" }, now);
    return {
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
