import type { FamilyExport as FamilyExportResource } from "@hearth/contracts";
import type { FamilyExport } from "../generated/prisma/client";

/** Sure's FamilyExport#filename: sure_export_YYYYMMDD_HHMMSS.zip of its creation (UTC). */
export function exportFilename(createdAt: Date): string {
  const stamp = createdAt.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
  return `sure_export_${stamp}.zip`;
}

export function toFamilyExportResource(row: FamilyExport): FamilyExportResource {
  const ready = row.status === "completed";
  return {
    id: row.id,
    status: row.status,
    filename: exportFilename(row.createdAt),
    downloadable: ready,
    download_path: ready ? `/api/v1/family_exports/${row.id}/download` : null,
    file: { attached: ready, byte_size: ready && row.byteSize !== null ? Number(row.byteSize) : null, content_type: ready ? "application/zip" : null },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
