import { z } from "zod";
import { HexColorSchema, TimestampSchema, UuidSchema } from "../primitives";

export const MerchantTypeSchema = z.enum(["FamilyMerchant", "ProviderMerchant"]);

export const MerchantSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  type: MerchantTypeSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Merchant = z.infer<typeof MerchantSchema>;

const MerchantName = z.string().trim().min(1, { message: "Name can't be blank" }).max(200, { message: "Name is too long (maximum is 200 characters)" });

export const CreateMerchantBodySchema = z.object({
  merchant: z.object({ name: MerchantName, color: HexColorSchema.optional() }),
});

export const UpdateMerchantBodySchema = z.object({
  merchant: z.object({ name: MerchantName.optional(), color: HexColorSchema.nullable().optional() }),
});

/** Sure's merchant import caps files at 10 MB; Hearth's rows travel on to the service in one call, so less. */
export const MERCHANT_IMPORT_LIMITS = { maxBytes: 512 * 1024, maxRows: 5_000 } as const;

/** The rows of an uploaded merchants CSV, as the gateway reads them (cells trimmed; a cell is absent where its column is). */
export const ImportMerchantsBodySchema = z.object({
  rows: z.array(z.object({ name: z.string(), color: z.string().optional(), website_url: z.string().optional() })).max(MERCHANT_IMPORT_LIMITS.maxRows),
});

/** Sure's import answer: how many were created and skipped (already there, or invalid), and the created merchants. */
export const MerchantImportSchema = z.object({
  imported: z.number().int().min(0),
  skipped: z.number().int().min(0),
  merchants: z.array(MerchantSchema),
});
export type MerchantImport = z.infer<typeof MerchantImportSchema>;
