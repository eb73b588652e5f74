import { AppError, type Actor } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { sha256 } from "../../crypto/secrets";
import { createApiKeyRepository } from "../api-keys/api-key-repository";
import type { RequestFacts } from "../local-handlers";
import { createSessionRepository } from "../sessions/session-repository";
import type { SessionExpiry } from "../sessions/session-expiry";
import type { AccessTokens } from "./access-tokens";
import { ACCOUNT_DEACTIVATED } from "./auth-errors";
import type { CredentialCache } from "./credential-cache";
import type { ApiKeyActorRow } from "../api-keys/api-key-repository";
import type { SessionState } from "../sessions/session-repository";

const LAST_USED_RESOLUTION_MS = 60_000;

export interface Credentials {
  apiKey: string | undefined;
  authorization: string | undefined;
}

/**
 * Resolves the credentials of a request to the acting user (spec section 5): `X-Api-Key`
 * or `Authorization: Bearer <JWT>`. Missing or invalid is 401; a valid credential of the
 * wrong kind, scope or role is 403. A bearer token is weighed first, as Sure's base controller
 * does: a valid one wins over any X-Api-Key, and an invalid one is 401 whatever the key.
 */
export interface AuthenticatorCaches {
  apiKeys: CredentialCache<ApiKeyActorRow>;
  sessions: CredentialCache<SessionState>;
}

export function createAuthenticator(db: IdentityDb, accessTokens: AccessTokens, sessions: SessionExpiry, caches: AuthenticatorCaches) {
  const apiKeys = createApiKeyRepository(db);
  const sessionStates = createSessionRepository(db);

  /** The key's row from memory, else from the database (then kept: a revoked key is not). */
  async function apiKeyRow(keyHash: string): Promise<ApiKeyActorRow | undefined> {
    const cached = caches.apiKeys.get(keyHash);
    if (cached) return cached;
    const ticket = caches.apiKeys.ticket();
    const row = await apiKeys.findActor(keyHash);
    if (row && !row.revoked_at) caches.apiKeys.set(keyHash, row.user_id, row, ticket);
    return row;
  }

  async function fromApiKey(key: string): Promise<Actor | null> {
    const keyHash = sha256(key);
    const row = await apiKeyRow(keyHash);
    if (!row || row.revoked_at) return null;
    if (row.suspended_at) throw ACCOUNT_DEACTIVATED;
    const now = new Date();
    // Recorded at one-minute resolution so a busy key does not turn every read into a write.
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      await apiKeys.touch(row.id, now);
      caches.apiKeys.update(keyHash, { ...row, last_used_at: now });
    }
    return { userId: row.user_id, familyId: row.family_id, role: row.role, scopes: row.scopes as Actor["scopes"], authMethod: "api_key", apiKeyId: row.id };
  }

  /** The session's state from memory unless `fresh`, else from the database (then kept while live). */
  async function sessionState(sessionId: string, userId: string, fresh = false): Promise<SessionState | undefined> {
    const key = `${sessionId}:${userId}`;
    const cached = fresh ? undefined : caches.sessions.get(key);
    if (cached) return cached;
    const ticket = caches.sessions.ticket();
    const state = await sessionStates.stateOf(sessionId, userId);
    if (state && !state.revoked_at) caches.sessions.set(key, userId, state, ticket);
    return state;
  }

  async function authenticate(credentials: Credentials, request: RequestFacts): Promise<Actor> {
    const match = /^Bearer\s+(\S+)$/i.exec(credentials.authorization ?? "");
    if (match?.[1]) {
      const actor = await accessTokens.verify(match[1]);
      const sessionId = actor?.sessionId;
      if (!actor || !sessionId) throw new AppError("unauthorized", { message: "Access token is invalid or expired" });
      // A signature is not enough: the session may have ended (logout, token reuse) since issue,
      // and role and family are read live, so a demotion or a move takes effect at once.
      let session = await sessionState(sessionId, actor.userId);
      if (!session || session.revoked_at) throw new AppError("unauthorized", { message: "The session of this access token has ended" });
      if (session.suspended_at) throw ACCOUNT_DEACTIVATED;
      const now = new Date();
      // Another gateway instance may have seen the session used since this one cached it: ask the database before ending it.
      if (sessions.isIdle(session.last_active_at, now)) {
        session = await sessionState(sessionId, actor.userId, true);
        if (!session || session.revoked_at) throw new AppError("unauthorized", { message: "The session of this access token has ended" });
        if (session.suspended_at) throw ACCOUNT_DEACTIVATED;
      }
      if (sessions.isIdle(session.last_active_at, now)) {
        await sessions.expire(sessionId, request, now);
        throw new AppError("unauthorized", { message: "The session has expired; log in again" });
      }
      if (sessions.needsTouch(session.last_active_at, now)) {
        await sessions.touch(sessionId, now);
        caches.sessions.update(`${sessionId}:${actor.userId}`, { ...session, last_active_at: now });
      }
      return { ...actor, familyId: session.family_id, role: session.role };
    }
    if (credentials.apiKey !== undefined) {
      const actor = await fromApiKey(credentials.apiKey);
      if (!actor) throw new AppError("unauthorized", { message: "API key is invalid or revoked" });
      return actor;
    }
    throw new AppError("unauthorized", { message: "Provide an API key (X-Api-Key) or a bearer token (Authorization)" });
  }

  return { authenticate };
}

// The gateway and every service check access with the same function, from the same table.
export { authorize } from "@hearth/contracts";
