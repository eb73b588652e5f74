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

/** A request's correlation id: the gateway keeps a client's X-Request-Id only if it matches, else makes a UUID. */
export const RequestIdSchema = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, { message: "must be 1 to 128 letters, digits or . _ : -" });

/** The context of every internal call: the caller and acting user are signed, the request id travels beside them. */
export const InternalContextSchema = z.object({
  caller: z.string(),
  requestId: RequestIdSchema,
  actor: ActorSchema.nullable(),
});
export type InternalContext = z.infer<typeof InternalContextSchema>;

export const SERVICE_NAMES = ["finance", "chat", "notifications", "audit"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
