import type { Actor, ActorStanding, Scope } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { standingRowOf } from "./actor-standing-queries";

const ENDED = "The credential you asked with has been revoked or its session has ended since: ask again.";
const DEACTIVATED = "Your account has been deactivated.";

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
    const row = await standingRowOf(db, actor, credential);
    // A session idle past its timeout has ended, swept or not yet (as the authenticator sees it).
    if (!row || (row.last_active_at && sessions.isIdle(row.last_active_at))) return refused(ENDED);
    if (row.suspended) return refused(DEACTIVATED);
    return { granted: true, reason: null, role: row.role, scopes: row.scopes as Scope[], ai_enabled: row.ai_enabled };
  };
}
export type ActorStandingOf = ReturnType<typeof createActorStanding>;
