import { z } from "zod";
import { UuidSchema } from "./primitives";

/** The `:id` path parameter of a resource route. */
export const IdParams = z.object({ id: UuidSchema });

/** The access rules routes share; `as const` keeps them literal for the route types. */
export const READ = { auth: "any", scope: "read" } as const;
export const WRITE = { auth: "any", scope: "read_write" } as const;
export const PUBLIC = { auth: "public" } as const;
/** Bearer tokens only: actions on the signed-in person's own credentials, never by API key. */
export const BEARER_READ = { auth: "bearer" } as const;
export const BEARER_WRITE = { auth: "bearer", scope: "read_write" } as const;
/** Family administration (members, invitations, SSO providers): an admin's bearer token. */
export const ADMIN_READ = { auth: "bearer", scope: "read", role: "admin" } as const;
export const ADMIN_WRITE = { auth: "bearer", scope: "read_write", role: "admin" } as const;
/** The AI assistant's routes: as READ/WRITE, for users who turned AI on (Sure's require_ai_enabled). */
export const AI_READ = { ...READ, ai: true } as const;
export const AI_WRITE = { ...WRITE, ai: true } as const;
