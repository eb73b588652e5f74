import { z } from "zod";
import { ScopeSchema } from "./resources/api-keys";
import { UuidSchema } from "./primitives";

export const RoleSchema = z.enum(["admin", "member"]);
export type Role = z.infer<typeof RoleSchema>;

/** Who is acting, as verified by the gateway. Services take the family from here, never from a payload. */
export const ActorSchema = z.object({
  userId: UuidSchema,
  familyId: UuidSchema,
  role: RoleSchema,
  scopes: z.array(ScopeSchema),
  authMethod: z.enum(["api_key", "bearer"]),
  /** The signed-in session a bearer token belongs to (absent for API keys). */
  sessionId: UuidSchema.optional(),
  /** The API key a request came with (absent for bearer tokens). */
  apiKeyId: UuidSchema.optional(),
});
export type Actor = z.infer<typeof ActorSchema>;

/** The context the gateway signs and sends with every internal call. */
export const InternalContextSchema = z.object({
  caller: z.string(),
  requestId: z.string(),
  actor: ActorSchema.nullable(),
});
export type InternalContext = z.infer<typeof InternalContextSchema>;

export const SERVICE_NAMES = ["finance", "chat", "notifications", "audit"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
