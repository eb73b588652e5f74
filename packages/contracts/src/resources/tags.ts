import { z } from "zod";
import { HexColorSchema, TimestampSchema, UuidSchema } from "../primitives";

export const TagSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  color: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Tag = z.infer<typeof TagSchema>;

const TagName = z.string().trim().min(1, { message: "Name can't be blank" }).max(100, { message: "Name is too long (maximum is 100 characters)" });

export const CreateTagBodySchema = z.object({
  tag: z.object({ name: TagName, color: HexColorSchema.optional() }),
});
export const UpdateTagBodySchema = z.object({
  tag: z.object({ name: TagName.optional(), color: HexColorSchema.optional() }),
});
