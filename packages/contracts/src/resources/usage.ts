import { z } from "zod";
import { TimestampSchema } from "../primitives";
import { ScopeSchema } from "./api-keys";

/**
 * Sure's GET /api/v1/usage for an API key: the key, and its rate-limit window as the limiter
 * counts it (the asking request included, as Sure counts a request before serving it).
 */
export const ApiKeyUsageSchema = z.object({
  api_key: z.object({
    name: z.string(),
    scopes: z.array(ScopeSchema),
    last_used_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  }),
  rate_limit: z.object({
    tier: z.string(),
    limit: z.number().int(),
    current_count: z.number().int(),
    remaining: z.number().int(),
    reset_in_seconds: z.number().int(),
    reset_at: TimestampSchema,
  }),
});
export type ApiKeyUsage = z.infer<typeof ApiKeyUsageSchema>;

/** Sure answers an OAuth token (here: a bearer token) with this notice: usage is tracked per API key only. */
export const BearerUsageNoticeSchema = z.object({
  authentication_method: z.literal("oauth"),
  message: z.string(),
});
export type BearerUsageNotice = z.infer<typeof BearerUsageNoticeSchema>;

export const UsageSchema = z.union([ApiKeyUsageSchema, BearerUsageNoticeSchema]);
export type Usage = z.infer<typeof UsageSchema>;
