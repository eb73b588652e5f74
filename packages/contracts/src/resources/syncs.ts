import { z } from "zod";
import { DateSchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";

/** Sure's SyncResource: a background recomputation and where it stands. */
export const SyncSchema = z.object({
  id: UuidSchema,
  status: z.enum(["pending", "syncing", "completed", "failed", "stale"]),
  in_progress: z.boolean(),
  terminal: z.boolean(),
  syncable: z.object({ type: z.string(), id: UuidSchema, name: z.string().nullable() }),
  parent_id: UuidSchema.nullable(),
  children_count: z.number().int().min(0),
  window_start_date: DateSchema.nullable(),
  window_end_date: DateSchema.nullable(),
  pending_at: TimestampSchema.nullable(),
  syncing_at: TimestampSchema.nullable(),
  completed_at: TimestampSchema.nullable(),
  failed_at: TimestampSchema.nullable(),
  error: z.object({ message: z.string() }).nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Sync = z.infer<typeof SyncSchema>;

export const SyncResponseSchema = z.object({ data: SyncSchema.nullable() });
export const SyncCollectionSchema = z.object({ data: z.array(SyncSchema).max(100), meta: PaginationSchema });

/** Sure's answer to POST /api/v1/sync (202): the queued family sync. */
export const SyncQueuedSchema = z.object({
  id: UuidSchema,
  status: SyncSchema.shape.status,
  syncable_type: z.string(),
  syncable_id: UuidSchema,
  syncing_at: TimestampSchema.nullable(),
  completed_at: TimestampSchema.nullable(),
  window_start_date: DateSchema.nullable(),
  window_end_date: DateSchema.nullable(),
  message: z.string(),
});
