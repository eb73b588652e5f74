import type { Actor, ActorStanding, Scope } from "@hearth/contracts";
import type { IdentityDb } from "../../db";

const ENDED = "The credential you asked with has been revoked or its session has ended since: ask again.";
const DEACTIVATED = "Your account has been deactivated.";

interface StandingRow {
  scopes: string[];
  role: "admin" | "member";
  ai_enabled: boolean;
  suspended: boolean;
  last_active_at: Date | null;
}

const refused = (reason: string): ActorStanding => ({ granted: false, reason, role: null, scopes: [], ai_enabled: false });

/**
 * Whether an actor a service works for still holds now, read live from the identity tables (not
 * the authenticator's caches: this is asked rarely, and must see a change committed a moment ago):
 * its API key not revoked or its session not ended, the user not suspended and still a member of
 * the family, with the role, scopes and assistant switch they have now.
 */
export function createActorStanding(db: IdentityDb, sessions: { isIdle(lastActiveAt: Date): boolean }) {
  return async function standingOf(actor: Actor): Promise<ActorStanding> {
    const credential = actor.authMethod === "api_key" ? actor.apiKeyId : actor.sessionId;
    if (!credential) return refused(ENDED);
    const rows =
      actor.authMethod === "api_key"
        ? await db.$queryRaw<StandingRow[]>`
            SELECT k.scopes, m.role::text AS role, u.ai_enabled, u.suspended_at IS NOT NULL AS suspended, NULL::timestamptz AS last_active_at
              FROM api_keys k JOIN users u ON u.id = k.user_id JOIN memberships m ON m.user_id = u.id
             WHERE k.id = ${credential}::uuid AND k.user_id = ${actor.userId}::uuid AND k.revoked_at IS NULL AND m.family_id = ${actor.familyId}::uuid`
        : await db.$queryRaw<StandingRow[]>`
            SELECT ${actor.scopes}::text[] AS scopes, m.role::text AS role, u.ai_enabled, u.suspended_at IS NOT NULL AS suspended, s.last_active_at
              FROM sessions s JOIN users u ON u.id = s.user_id JOIN memberships m ON m.user_id = u.id
             WHERE s.id = ${credential}::uuid AND s.user_id = ${actor.userId}::uuid AND s.revoked_at IS NULL AND m.family_id = ${actor.familyId}::uuid`;
    const row = rows[0];
    // A session idle past its timeout has ended, swept or not yet (as the authenticator sees it).
    if (!row || (row.last_active_at && sessions.isIdle(row.last_active_at))) return refused(ENDED);
    if (row.suspended) return refused(DEACTIVATED);
    return { granted: true, reason: null, role: row.role, scopes: row.scopes as Scope[], ai_enabled: row.ai_enabled };
  };
}
export type ActorStandingOf = ReturnType<typeof createActorStanding>;
