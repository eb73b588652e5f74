import { once } from "node:events";
import { AppError, FamilyExportChunkSchema, UuidSchema } from "@hearth/contracts";
import type { ServiceCall } from "@hearth/service-kit";
import type { Express, Request, Response } from "express";
import { DOWNLOADS_PER_LINK, type DownloadLinks } from "../family-data/export-download-links";
import { familyRateLimitBucket, rateLimitExceeded, rateLimitHeaders, type RateLimiter } from "./rate-limiter";

/** Longest a download may take before the gateway gives up on it (a 1M-transaction export is tens of MB). */
const SLICE_LIMIT = 100_000;

/**
 * GET /api/v1/family_exports/:id/file: where /download's 302 points. No credential: the signed
 * link is the grant. The ZIP is streamed slice by slice from finance (1 MiB each), each written
 * before the next is asked for, so the gateway holds one slice whatever the archive's size.
 */
export function mountExportFile(
  app: Express,
  finance: ServiceCall,
  links: DownloadLinks,
  rateLimiter: RateLimiter,
  grantorStillAdmits: (bucket: string, familyId: string) => Promise<boolean>,
): void {
  app.get("/api/v1/family_exports/:id/file", async (req: Request, res: Response, next) => {
    try {
      const exportId = UuidSchema.safeParse(req.params["id"]);
      const grant = exportId.success ? links.verify(exportId.data, req.query) : null;
      if (!grant) throw new AppError("forbidden", { message: "The download link is invalid or has expired" });
      // The credential that asked for it must still grant it (a key revoked, a logout, a demotion since).
      if (!(await grantorStillAdmits(grant.bucket, grant.familyId))) {
        throw new AppError("forbidden", { message: "The download link's credential no longer grants this export" });
      }
      // Counted against the credential that asked for the link and its family, as its requests are;
      // then against the link's own few downloads.
      for (const [bucket, whose] of [
        [grant.bucket, "credential"],
        [familyRateLimitBucket(grant), "family"],
      ] as const) {
        const usage = await rateLimiter.consume(bucket);
        if (usage.current > usage.limit) {
          res.set(rateLimitHeaders(usage));
          throw rateLimitExceeded(usage, whose);
        }
      }
      // A HEAD (a link preview, a download manager probing) costs the link none of its downloads.
      if (req.method !== "HEAD" && !(await links.use(grant))) {
        throw new AppError("forbidden", { message: `The download link has served its ${DOWNLOADS_PER_LINK} downloads: ask /download for a new one` });
      }
      const requestId = res.locals["requestId"] as string;
      for (let seq = 0; seq < SLICE_LIMIT; seq++) {
        const slice = FamilyExportChunkSchema.parse(
          await finance("familyExports.chunk", "mutation", { familyId: grant.familyId, exportId: grant.exportId, seq }, { requestId, actor: null }),
        );
        if (seq === 0) {
          res.status(200);
          res.set({
            "Content-Type": "application/zip",
            "Content-Length": String(slice.byteSize),
            "Content-Disposition": `attachment; filename="${slice.filename}"`,
            "Cache-Control": "private, no-store",
          });
          // A HEAD wants the headers only: the rest of the archive is not read from finance for it.
          if (req.method === "HEAD") break;
        }
        // A client that went away never drains: its close ends the wait (and the loop).
        if (!res.write(Buffer.from(slice.data, "base64"))) await Promise.race([once(res, "drain"), once(res, "close")]);
        if (slice.last || res.destroyed) break;
      }
      res.end();
    } catch (err) {
      // Once bytes went out the status cannot change: the client sees a cut download (shorter than Content-Length).
      if (res.headersSent) res.destroy(err instanceof Error ? err : undefined);
      else next(err);
    }
  });
}
