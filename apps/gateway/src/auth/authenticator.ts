import { AppError, type Actor, type RouteAccess } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import type { AccessTokens } from "./access-tokens";
import { sha256 } from "./secrets";

const LAST_USED_RESOLUTION_MS = 60_000;

export interface Credentials {
  apiKey: string | undefined;
  authorization: string | undefined;
}

/**
 * Resolves the credentials of a request to the acting user (spec section 5): `X-Api-Key`
 * or `Authorization: Bearer <JWT>`. Missing or invalid is 401; a valid credential of the
 * wrong kind, scope or role is 403.
 */
export function createAuthenticator(db: IdentityDb, accessTokens: AccessTokens) {
  async function fromApiKey(key: string): Promise<Actor | null> {
    const row = await db.apiKey.findUnique({ where: { keyHash: sha256(key) }, include: { user: { include: { membership: true } } } });
    const membership = row?.user.membership;
    if (!row || row.revokedAt || !membership) return null;
    const now = new Date();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      // Recorded at one-minute resolution so a busy key does not turn every read into a write.
      await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
    }
    return { userId: row.userId, familyId: membership.familyId, role: membership.role, scopes: row.scopes as Actor["scopes"], authMethod: "api_key" };
  }

  async function authenticate(credentials: Credentials): Promise<Actor> {
    if (credentials.apiKey !== undefined) {
      const actor = await fromApiKey(credentials.apiKey);
      if (!actor) throw new AppError("unauthorized", { message: "API key is invalid or revoked" });
      return actor;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(credentials.authorization ?? "");
    if (match?.[1]) {
      const actor = await accessTokens.verify(match[1]);
      if (!actor) throw new AppError("unauthorized", { message: "Access token is invalid or expired" });
      return actor;
    }
    throw new AppError("unauthorized", { message: "Provide an API key (X-Api-Key) or a bearer token (Authorization)" });
  }

  return { authenticate };
}

/** Checks the route's declared access against the actor. */
export function authorize(actor: Actor, access: RouteAccess): void {
  if (access.auth === "bearer" && actor.authMethod !== "bearer") {
    throw new AppError("forbidden", { message: "This endpoint requires a bearer token" });
  }
  if (access.scope === "read_write" && !actor.scopes.includes("read_write")) {
    throw new AppError("insufficient_scope");
  }
  if (access.role === "admin" && actor.role !== "admin") {
    throw new AppError("forbidden", { message: "This action requires the admin role" });
  }
}
