import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/** How long a download link works. */
export const DOWNLOAD_LINK_TTL_SECONDS = 300;

/** Downloads one link serves (a browser retrying, a download manager resuming); past them, a new link is asked for. */
export const DOWNLOADS_PER_LINK = 3;

export interface DownloadGrant {
  familyId: string;
  exportId: string;
  /** The rate-limit bucket of the credential that asked for the link: each download is counted there. */
  bucket: string;
  /** Unix seconds. */
  expires: number;
  /** Makes each link its own (two asked for in one second are counted apart). */
  nonce: string;
  signature: string;
}

/** Counts one more use of `key` in the window starting at `windowStart`; answers the count so far. */
export type UseCounter = (key: string, windowStart: Date) => Promise<number>;

/** A link's query as linkTo writes it (the bucket one of rateLimitBucket's kinds). */
const LinkQuerySchema = z.object({
  family_id: z.string().max(64),
  by: z.string().regex(/^(api_key|user):[0-9a-f-]{36}$/),
  expires: z.string().regex(/^\d{1,12}$/),
  n: z.string().regex(/^[\w-]{12}$/),
  signature: z.string().max(64),
});

/**
 * Signed, short-lived links to a completed export's ZIP (Sure redirects /download to a blob URL
 * the same way): the link carries the family and export it grants, the credential that asked for
 * it and its expiry, under an HMAC keyed from the gateway's secret, so fetching it needs no
 * credential and proves nothing else. Each link serves DOWNLOADS_PER_LINK downloads at most,
 * counted by every gateway instance alike (`countUse`: PostgreSQL's throttle counters).
 */
export function createDownloadLinks(secret: string, countUse: UseCounter, now: () => number = () => Math.floor(Date.now() / 1000)) {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "hearth family export download links", 32));
  const sign = (grant: Omit<DownloadGrant, "signature">) =>
    createHmac("sha256", key).update(`${grant.familyId}.${grant.exportId}.${grant.bucket}.${grant.expires}.${grant.nonce}`).digest("base64url");

  return {
    /** The path (relative: never built from a client's Host header) of a link valid for DOWNLOAD_LINK_TTL_SECONDS. */
    linkTo(familyId: string, exportId: string, bucket: string): string {
      const grant = { familyId, exportId, bucket, expires: now() + DOWNLOAD_LINK_TTL_SECONDS, nonce: randomBytes(9).toString("base64url") };
      const query = new URLSearchParams({ family_id: familyId, by: bucket, expires: String(grant.expires), n: grant.nonce, signature: sign(grant) });
      return `/api/v1/family_exports/${exportId}/file?${query.toString()}`;
    },

    /** The grant a link's parts stand for, or null when it is forged, altered or expired. */
    verify(exportId: string, query: unknown): DownloadGrant | null {
      const link = LinkQuerySchema.safeParse(query);
      if (!link.success) return null;
      const { family_id: familyId, by: bucket, expires, n: nonce, signature } = link.data;
      const grant = { familyId, exportId, bucket, expires: Number(expires), nonce };
      if (grant.expires < now()) return null;
      const expected = Buffer.from(sign(grant));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given) ? { ...grant, signature } : null;
    },

    /** Counts a download of the link: false once it has served DOWNLOADS_PER_LINK. */
    async use(grant: DownloadGrant): Promise<boolean> {
      return (await countUse(`export_download:${grant.signature}`, new Date(grant.expires * 1000))) <= DOWNLOADS_PER_LINK;
    },
  };
}
export type DownloadLinks = ReturnType<typeof createDownloadLinks>;
