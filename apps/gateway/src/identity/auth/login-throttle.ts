import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { createLoginThrottleRepository } from "./login-throttle-repository";

export interface LoginThrottleOptions {
  /** Failures allowed per account before it locks. */
  accountFailures: number;
  /** Failures allowed per client IP (all accounts together) before it locks. */
  ipFailures: number;
  /** First lockout; each further failure doubles it, up to `maxLockSeconds`. */
  baseLockSeconds: number;
  maxLockSeconds: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  accountFailures: 5,
  ipFailures: 20,
  baseLockSeconds: 30,
  maxLockSeconds: 3600,
  forgetAfterSeconds: 3600,
};

const keysOf = (email: string, ip: string | null) => [
  { key: `email:${email}`, limit: "accountFailures" as const },
  ...(ip ? [{ key: `ip:${ip}`, limit: "ipFailures" as const }] : []),
];

/**
 * Per-account and per-IP login throttling with exponential lockout. Keyed by the normalised
 * email whether or not an account has it, so a lockout says nothing about which emails exist.
 */
export function createLoginThrottle(db: IdentityDb, options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE) {
  const throttles = createLoginThrottleRepository(db);
  return {
    /** Throws 429 rate_limit_exceeded while the account or the IP is locked. */
    async assertAllowed(email: string, ip: string | null, now = new Date()): Promise<void> {
      const locks = await throttles.lockedUntil(
        keysOf(email, ip).map((k) => k.key),
        now,
      );
      const until = Math.max(0, ...locks.map((lockedUntil) => lockedUntil.getTime()));
      if (until === 0) return;
      const resetInSeconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
      throw new AppError("rate_limit_exceeded", {
        message: `Too many failed logins. Try again in ${resetInSeconds} seconds.`,
        details: { reset_in_seconds: resetInSeconds },
      });
    },

    /** Counts a failure against the account and the IP, locking each past its allowance. */
    async recordFailure(email: string, ip: string | null, now = new Date()): Promise<void> {
      for (const { key, limit } of keysOf(email, ip)) {
        const existing = await throttles.find(key);
        const stale = !existing || now.getTime() - existing.lastFailureAt.getTime() > options.forgetAfterSeconds * 1000;
        const failures = (stale ? 0 : existing.failures) + 1;
        const over = failures - options[limit];
        const lockedUntil = over >= 0 ? new Date(now.getTime() + Math.min(options.maxLockSeconds, options.baseLockSeconds * 2 ** over) * 1000) : null;
        await throttles.save(key, { failures, lastFailureAt: now, lockedUntil });
      }
    },

    /** A successful login clears the account's failures (the IP's stay: it may be guessing others). */
    async recordSuccess(email: string): Promise<void> {
      await throttles.clear(`email:${email}`);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
