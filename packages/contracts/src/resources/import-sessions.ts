import { z } from "zod";
import { TimestampSchema, UuidSchema } from "../primitives";
import { IMPORT_CONTENT_MAX_CHARS } from "./imports";

const SESSION_STATUSES = ["pending", "importing", "complete", "failed"] as const;
const Summary = z.record(z.string().max(100), z.record(z.string().max(100), z.number().int()));
const ErrorDetails = z.record(z.string().max(100), z.unknown()).nullable();

/** The chunks a session takes at most (Sure has no cap; ours bounds the session's total). */
export const IMPORT_SESSION_MAX_CHUNKS = 1_000;

/** Sure's ImportSessionChunk. */
export const ImportSessionChunkSchema = z.object({
  id: UuidSchema,
  sequence: z.number().int().min(1),
  client_chunk_id: z.string().nullable(),
  status: z.enum(SESSION_STATUSES),
  rows_count: z.number().int().min(0),
  summary: Summary,
  error: ErrorDetails.optional(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});

/** Sure's ImportSession, with the chunks in sequence order; `progress` is ours (rows written of the rows to write while publishing). */
export const ImportSessionSchema = z.object({
  id: UuidSchema,
  type: z.literal("SureImport"),
  status: z.enum(SESSION_STATUSES),
  client_session_id: z.string().nullable(),
  expected_chunks: z.number().int().min(1).nullable(),
  chunks_count: z.number().int().min(0),
  summary: Summary,
  error: ErrorDetails.optional(),
  chunks: z.array(ImportSessionChunkSchema).max(IMPORT_SESSION_MAX_CHUNKS),
  progress: z.object({ rows_done: z.number().int().min(0), rows_total: z.number().int().min(0) }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type ImportSession = z.infer<typeof ImportSessionSchema>;
export const ImportSessionResponseSchema = z.object({ data: ImportSessionSchema });

const PositiveInteger = (field: string, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z
      .number({ message: `${field} must be a positive integer` })
      .int({ message: `${field} must be a positive integer` })
      .min(1, { message: `${field} must be a positive integer` })
      .max(max, { message: `${field} must be at most ${max}` }),
  );

export const ImportSessionCreateBodySchema = z.object({
  type: z.literal("SureImport", { message: "Import type must be SureImport" }).optional(),
  client_session_id: z.string().trim().max(255, { message: "Client session is too long (maximum is 255 characters)" }).nullable().optional(),
  expected_chunks: PositiveInteger("expected_chunks", IMPORT_SESSION_MAX_CHUNKS).nullable().optional(),
});

/** A chunk: JSON with raw_file_content, or a multipart `file` (the gateway turns it into raw_file_content). */
export const ImportSessionChunkBodySchema = z.object({
  sequence: PositiveInteger("sequence", IMPORT_SESSION_MAX_CHUNKS),
  client_chunk_id: z.string().trim().max(255).nullable().optional(),
  raw_file_content: z.string().max(IMPORT_CONTENT_MAX_CHARS, { message: "raw_file_content is too long" }).optional(),
  filename: z.string().max(255).optional(),
  content_type: z.string().max(255).optional(),
});

export const ImportSessionPublishBodySchema = z.object({}).strict();
