import { z } from "zod";
import { PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

export const FAMILY_EXPORT_STATUSES = ["pending", "processing", "completed", "failed"] as const;

/** Sure's FamilyExportFile: the stored archive, once there is one. */
export const FamilyExportFileSchema = z.object({
  attached: z.boolean(),
  byte_size: z.number().int().min(0).nullable(),
  content_type: z.string().nullable(),
});

/** Sure's FamilyExport. */
export const FamilyExportSchema = z.object({
  id: UuidSchema,
  status: z.enum(FAMILY_EXPORT_STATUSES),
  filename: z.string(),
  downloadable: z.boolean(),
  download_path: z.string().nullable(),
  file: FamilyExportFileSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type FamilyExport = z.infer<typeof FamilyExportSchema>;

export const FamilyExportResponseSchema = z.object({ data: FamilyExportSchema });
export const FamilyExportCollectionSchema = z.object({ data: z.array(FamilyExportSchema).max(100), meta: PaginationSchema });
export const FamilyExportListQuerySchema = PageQuerySchema;

/** POST /api/v1/family_exports takes no parameters: any is refused (the route names it `invalid_params`, as Sure). */
export const FamilyExportCreateParamsSchema = z.object({}).strict();

/** The gateway's answer to /download of a completed export: where its signed, short-lived file URL points. */
export const FamilyExportDownloadSchema = z.object({ location: z.string() });

/** finance's internal `familyExports.chunk`: one slice of a completed export's ZIP, for the gateway to stream. */
export const FamilyExportChunkInputSchema = z.object({ familyId: UuidSchema, exportId: UuidSchema, seq: z.number().int().min(0) });
export const FamilyExportChunkSchema = z.object({ data: z.base64(), last: z.boolean(), filename: z.string(), byteSize: z.number().int().min(0) });
