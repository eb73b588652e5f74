import type { IdentityDb } from "../../db";

export interface ThrottleState {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

/** Failure counts and lockouts per throttle key (`email:…`, `ip:…`). */
export function createLoginThrottleRepository(db: IdentityDb) {
  return {
    /** When each of these keys that is locked at `now` unlocks. */
    async lockedUntil(keys: string[], now: Date): Promise<Date[]> {
      const rows = await db.loginThrottle.findMany({ where: { key: { in: keys }, lockedUntil: { gt: now } } });
      return rows.flatMap((row) => (row.lockedUntil ? [row.lockedUntil] : []));
    },

    find: (key: string) => db.loginThrottle.findUnique({ where: { key } }),

    async save(key: string, state: ThrottleState): Promise<void> {
      await db.loginThrottle.upsert({ where: { key }, create: { key, ...state }, update: state });
    },

    async clear(key: string): Promise<void> {
      await db.loginThrottle.deleteMany({ where: { key } });
    },
  };
}
