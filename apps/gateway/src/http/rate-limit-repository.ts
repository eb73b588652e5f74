import type { IdentityDb } from "../db";

/** The per-address throttle counts (sign-up, SSO authorize) of every gateway instance: one row per bucket and window. */
export function createRateLimitRepository(db: IdentityDb) {
  return {
    /** Adds `hits` to the bucket's window atomically; answers the new count. */
    async add(bucket: string, windowStart: Date, hits: number): Promise<number> {
      const [row] = await db.$queryRaw<{ hits: number }[]>`
        INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${bucket}, ${windowStart}, ${hits})
        ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + ${hits}
        RETURNING hits`;
      return row?.hits ?? hits;
    },

    async read(bucket: string, windowStart: Date): Promise<number> {
      const [row] = await db.$queryRaw<{ hits: number }[]>`
        SELECT hits FROM rate_limit_counters WHERE bucket = ${bucket} AND window_start = ${windowStart}`;
      return row?.hits ?? 0;
    },
  };
}
