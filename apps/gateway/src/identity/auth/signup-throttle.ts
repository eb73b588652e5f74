import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { createRateLimitRepository } from "../../http/rate-limit-repository";
import { clientIpBucket } from "../../net/client-ip-bucket";

export interface SignupThrottleOptions {
  /** Sign-ups one client IP may attempt per window. */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

/**
 * Sign-ups per client IP per fixed window, counted before any work (an argon2 hash, a new
 * family), in PostgreSQL's throttle counters (bucket `signup:<ip>`): one atomic upsert per
 * attempt, so parallel sign-ups on any instance never pass the limit. The identity sweep
 * deletes windows that have ended.
 */
export function createSignupThrottle(db: IdentityDb, { limit, windowSeconds, now = Date.now }: SignupThrottleOptions) {
  const counters = createRateLimitRepository(db);
  const windowMs = windowSeconds * 1000;
  return {
    /** Counts a sign-up attempt from this IP; 429 rate_limit_exceeded past the limit, saying when the window ends. */
    async admit(ip: string | null): Promise<void> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      // Without an address every such request shares one count rather than going uncounted.
      const attempts = await counters.add(`signup:${ip ? clientIpBucket(ip) : "unknown"}`, new Date(windowStart), 1);
      if (attempts <= limit) return;
      const resetInSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
      throw new AppError("rate_limit_exceeded", {
        message: `Too many sign-ups from this address. Try again in ${resetInSeconds} seconds.`,
        details: { limit, reset_in_seconds: resetInSeconds },
      });
    },
  };
}
export type SignupThrottle = ReturnType<typeof createSignupThrottle>;
