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

/**
 * The gateway's answer to a service asking whether the actor it works for still holds now
 * (POST ACTOR_STANDING_PATH with the service's internal token for that actor): the assistant asks
 * before it answers a question and before any write tool, since an answer runs after its request.
 */
export const ACTOR_STANDING_PATH = "/internal/actor-standing";
export const ActorStandingSchema = z.object({
  /** The credential is live (key not revoked, session not ended), the user not suspended, still of the family. */
  granted: z.boolean(),
  /** Why not, in words safe to show the user. */
  reason: z.string().nullable(),
  /** The user's role now. */
  role: RoleSchema.nullable(),
  /** The credential's scopes now (an API key's may have changed; a session's are its token's). */
  scopes: z.array(ScopeSchema),
  /** The user's own assistant switch (the family's is finance's). */
  ai_enabled: z.boolean(),
});
export type ActorStanding = z.infer<typeof ActorStandingSchema>;
