import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams } from "../../route-access";
import { answerWith } from "../../route";
import { FamilyExportDownloadSchema } from "../../resources/family-exports";

/**
 * Sure's /download: 409 `export_not_ready` until the export completed, then a 302 to a signed
 * URL on the gateway valid for a few minutes, which streams the ZIP without a credential (as
 * Sure redirects to a blob URL), so a browser or download manager can fetch it.
 */
export const familyExportDownloadsRoutes = defineResourceRoutes("gateway", "familyExportDownloads", {
  download: {
    method: "GET",
    path: "/api/v1/family_exports/:id/download",
    summary: "Download a completed family export: a 302 to a signed URL valid for 5 minutes (409 export_not_ready before)",
    tag: "Family Exports",
    params: IdParams,
    response: answerWith(FamilyExportDownloadSchema, [302]),
    status: 302,
    statuses: [302],
    access: { auth: "any", scope: "read", role: "admin" },
  },
});
