import { createSecretBox } from "@hearth/service-kit";

/**
 * What a refresh answers is derived from the refresh token presented, under a key of the server:
 * the next refresh token and the access token's id (its `jti`). The same spent token presented
 * again within the grace window (two screens of the app refreshing at once) is answered with the
 * very same pair, recomputed, with nothing secret kept at rest to do it.
 */
export function createRefreshRotation(masterKey: string, graceSeconds: number) {
  const box = createSecretBox(masterKey, "refresh-rotation");
  return {
    graceSeconds,
    nextRefreshToken: (presented: string) => `hrt_${Buffer.from(box.fingerprint(`refresh:${presented}`), "hex").toString("base64url")}`,
    /** A UUID (version 4 layout) made from the presented token. */
    accessTokenId(presented: string): string {
      const hex = box.fingerprint(`jti:${presented}`).slice(0, 32).split("");
      hex[12] = "4";
      hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
      const h = hex.join("");
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    },
    /**
     * Whether a token spent at `spentAt` may still be answered with its pair at `now` (a request
     * racing the one that spent it may have started, and read its clock, a little before). A
     * window of 0 turns it off.
     */
    withinGrace: (spentAt: Date, now: Date) => graceSeconds > 0 && now.getTime() - spentAt.getTime() <= graceSeconds * 1000,
  };
}
export type RefreshRotation = ReturnType<typeof createRefreshRotation>;
