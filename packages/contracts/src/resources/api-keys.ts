import { z } from "zod";
import { TimestampSchema, UuidSchema } from "../primitives";

export const ScopeSchema = z.enum(["read", "read_write"]);
export type Scope = z.infer<typeof ScopeSchema>;

export const ApiKeySchema = z.object({
  id: UuidSchema,
  name: z.string(),
  scopes: z.array(ScopeSchema),
  display_key: z.string(),
  last_used_at: TimestampSchema.nullable(),
  created_at: TimestampSchema,
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** Only the creation answer carries the plain key: it is never shown again. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() });

/** Live API keys one user may hold at once (Sure has no cap: each key is a rate-limit bucket of its own). */
export const API_KEYS_PER_USER = 10;

export const ApiKeyListSchema = z.object({ api_keys: z.array(ApiKeySchema) });

export const CreateApiKeyBodySchema = z.object({
  api_key: z.object({
    name: z.string().trim().min(1, { message: "Name can't be blank" }).max(100),
    scopes: z.array(ScopeSchema, { message: 'Scopes must be ["read"] or ["read_write"]' }).length(1, { message: 'Scopes must be ["read"] or ["read_write"]' }),
  }),
});
