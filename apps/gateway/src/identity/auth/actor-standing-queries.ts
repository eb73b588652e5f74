import type { Actor } from "@hearth/contracts";
import type { IdentityDb } from "../../db";

/** What an actor's credential, user and membership say now, read live from the identity tables. */
export interface StandingRow {
  scopes: string[];
  role: "admin" | "member";
  ai_enabled: boolean;
  suspended: boolean;
  last_active_at: Date | null;
}

/**
 * The standing of an actor's credential, `credential` its API key's or session's id; nothing when
 * the credential is revoked or not theirs, or the user is no longer in the actor's family.
 */
export async function standingRowOf(db: IdentityDb, actor: Actor, credential: string): Promise<StandingRow | undefined> {
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
  return rows[0];
}
