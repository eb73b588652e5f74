import type { IdentityDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";

/** How one throttle key counts: its allowance, its exponential lock, and when it forgets. */
export interface ThrottleRule {
  /** Attempts counted before the key locks; the attempt that reaches it starts the lock. */
  allowance: number;
  baseLockSeconds: number;
  maxLockSeconds: number;
  /** A key with no attempt for this long starts again from one. */
  forgetAfterSeconds: number;
}

export interface CountedAttempt {
  /** Attempts counted in the current run, this one included. */
  failures: number;
  /** Set when this attempt reached the allowance: the lock it started. */
  lockedUntil: Date | null;
}

// Past this the lock is long capped anyway; it keeps power() far from overflowing.
const MAX_DOUBLINGS = 30;

/** The lock once `count` attempts are counted: none below the allowance, then base × 2^(count − allowance), capped. */
function lockAfter(count: Prisma.Sql, rule: ThrottleRule, now: Date): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${count} >= ${rule.allowance}::int
    THEN ${now}::timestamptz + make_interval(secs => LEAST(${rule.maxLockSeconds}::float8,
      ${rule.baseLockSeconds}::float8 * power(2, LEAST(${count} - ${rule.allowance}::int, ${MAX_DOUBLINGS}::int))))
    END`;
}

/**
 * Attempt counts and lockouts per throttle key (`email:…`, `ip:…`, `mfa:<user id>`). Attempts
 * are counted before their secret is checked, each in one statement, so no number of parallel
 * requests gets more attempts checked than the allowance.
 */
export function createLoginThrottleRepository(db: IdentityDb) {
  return {
    /**
     * Counts one attempt unless the key is locked at `now`: answers the new count and the lock
     * this attempt started, or null when the key was locked (nothing counted). The row lock of
     * the upsert makes concurrent attempts count one after another.
     */
    async count(key: string, rule: ThrottleRule, now: Date): Promise<CountedAttempt | null> {
      const forgetBefore = new Date(now.getTime() - rule.forgetAfterSeconds * 1000);
      const next = Prisma.sql`(CASE WHEN t.last_failure_at < ${forgetBefore} THEN 1 ELSE t.failures + 1 END)`;
      const [row] = await db.$queryRaw<CountedAttempt[]>`
        INSERT INTO login_throttles AS t (key, failures, last_failure_at, locked_until)
        VALUES (${key}, 1, ${now}, ${lockAfter(Prisma.sql`1`, rule, now)})
        ON CONFLICT (key) DO UPDATE SET failures = ${next}, last_failure_at = ${now}, locked_until = ${lockAfter(next, rule, now)}
         WHERE t.locked_until IS NULL OR t.locked_until <= ${now}
        RETURNING t.failures, t.locked_until AS "lockedUntil"`;
      return row ?? null;
    },

    /** When the key unlocks (null when it is not locked). */
    async lockedUntil(key: string): Promise<Date | null> {
      const row = await db.loginThrottle.findUnique({ where: { key }, select: { lockedUntil: true } });
      return row?.lockedUntil ?? null;
    },

    /** Takes one counted attempt back (it was no failure), with the lock it started if the count falls below the allowance. */
    async uncount(key: string, rule: ThrottleRule): Promise<void> {
      await db.$executeRaw`
        UPDATE login_throttles
           SET failures = GREATEST(failures - 1, 0),
               locked_until = CASE WHEN failures - 1 >= ${rule.allowance}::int THEN locked_until END
         WHERE key = ${key}`;
    },

    async clear(key: string): Promise<void> {
      await db.loginThrottle.deleteMany({ where: { key } });
    },
  };
}
export type LoginThrottleRepository = ReturnType<typeof createLoginThrottleRepository>;
