import type { Role } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { announceCredentialChange } from "../auth/credential-announcements";

/** An API key with what a request made with it acts as. */
export interface ApiKeyActorRow {
  id: string;
  user_id: string;
  scopes: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
  suspended_at: Date | null;
  family_id: string;
  role: Role;
}

export interface NewApiKey {
  name: string;
  scopes: string[];
  keyHash: string;
  displayKey: string;
}

/** A user's API keys; only their SHA-256 is stored. */
export function createApiKeyRepository(db: IdentityDb) {
  return {
    /** The user's live keys, newest first. */
    listLive: (userId: string) => db.apiKey.findMany({ where: { userId, revokedAt: null }, orderBy: { createdAt: "desc" } }),

    /**
     * The key, unless the user holds `limit` live ones already (null). Counted under the user's
     * lock: parallel creates cannot all pass the count.
     */
    create(userId: string, key: NewApiKey, limit: number) {
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.gateway.api-keys:' || ${userId}::text, 0))`;
        if ((await tx.apiKey.count({ where: { userId, revokedAt: null } })) >= limit) return null;
        return tx.apiKey.create({ data: { userId, ...key } });
      });
    },

    /** False when the user has no live key of this id. */
    async revoke(userId: string, id: string, now: Date): Promise<boolean> {
      const { count } = await db.apiKey.updateMany({ where: { id, userId, revokedAt: null }, data: { revokedAt: now } });
      if (count > 0) await announceCredentialChange(db, [userId]);
      return count > 0;
    },

    findLive: (id: string) => db.apiKey.findFirst({ where: { id, revokedAt: null }, select: { name: true, scopes: true, lastUsedAt: true, createdAt: true } }),

    /** One round trip on the hot path of every API-key request (the relation include took three). */
    async findActor(keyHash: string): Promise<ApiKeyActorRow | undefined> {
      const [row] = await db.$queryRaw<ApiKeyActorRow[]>`
        SELECT k.id, k.user_id, k.scopes, k.last_used_at, k.revoked_at, u.suspended_at, m.family_id, m.role::text AS role
          FROM api_keys k JOIN users u ON u.id = k.user_id JOIN memberships m ON m.user_id = k.user_id
         WHERE k.key_hash = ${keyHash}`;
      return row;
    },

    async touch(id: string, now: Date): Promise<void> {
      await db.apiKey.update({ where: { id }, data: { lastUsedAt: now } });
    },
  };
}
export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
