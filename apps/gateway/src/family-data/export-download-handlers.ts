import { AppError } from "@hearth/contracts";
import { createTypedServiceClient, type ServiceCall } from "@hearth/service-kit";
import { requireActor, type LocalHandler } from "../identity/local-handlers";
import { rateLimitBucket } from "../http/rate-limiter";
import type { DownloadLinks } from "./export-download-links";

/**
 * Sure's family_exports#download: the export is read from finance as the asking admin (404 for
 * another family's), 409 export_not_ready until it completed, then a 302 to a signed link.
 */
export function createExportDownloadHandlers(finance: ServiceCall, links: DownloadLinks) {
  const download: LocalHandler<"familyExportDownloads.download"> = async ({ actor, input, request }) => {
    const asking = requireActor(actor);
    const asFinance = createTypedServiceClient("finance", (procedure, kind, body) => finance(procedure, kind, body, { requestId: request.requestId, actor }));
    const { data } = await asFinance.call("familyExports.get", { id: input.id });
    if (!data.downloadable) throw new AppError("export_not_ready");
    return { status: 302 as const, body: { location: links.linkTo(asking.familyId, data.id, rateLimitBucket(asking)) } };
  };
  return { "familyExportDownloads.download": download };
}
