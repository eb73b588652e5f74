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
