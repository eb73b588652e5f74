import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/** How long a download link works. */
export const DOWNLOAD_LINK_TTL_SECONDS = 300;

export interface DownloadGrant {
  familyId: string;
  exportId: string;
  /** Unix seconds. */
  expires: number;
}

/**
 * Signed, short-lived links to a completed export's ZIP (Sure redirects /download to a blob URL
 * the same way): the link carries the family and export it grants and its expiry, under an HMAC
 * keyed from the gateway's secret, so fetching it needs no credential and proves nothing else.
 */
export function createDownloadLinks(secret: string, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "hearth family export download links", 32));
  const sign = (grant: DownloadGrant) => createHmac("sha256", key).update(`${grant.familyId}.${grant.exportId}.${grant.expires}`).digest("base64url");

  return {
    /** The path (relative: never built from a client's Host header) of a link valid for DOWNLOAD_LINK_TTL_SECONDS. */
    linkTo(familyId: string, exportId: string): string {
      const grant = { familyId, exportId, expires: now() + DOWNLOAD_LINK_TTL_SECONDS };
      const query = new URLSearchParams({ family_id: familyId, expires: String(grant.expires), signature: sign(grant) });
      return `/api/v1/family_exports/${exportId}/file?${query.toString()}`;
    },

    /** The grant a link's parts stand for, or null when it is forged, altered or expired. */
    verify(exportId: string, query: { family_id?: unknown; expires?: unknown; signature?: unknown }): DownloadGrant | null {
      const { family_id: familyId, expires, signature } = query;
      if (typeof familyId !== "string" || typeof expires !== "string" || typeof signature !== "string") return null;
      if (!/^\d{1,12}$/.test(expires) || signature.length > 64) return null;
      const grant = { familyId, exportId, expires: Number(expires) };
      if (grant.expires < now()) return null;
      const expected = Buffer.from(sign(grant));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given) ? grant : null;
    },
  };
}
export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
