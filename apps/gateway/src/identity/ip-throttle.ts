import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import { createRateLimitRepository } from "../http/rate-limit-repository";
import { clientIpBucket } from "../net/client-ip-bucket";

export interface IpThrottleOptions {
  /** The counters' bucket prefix (`<bucket>:<ip>`): one per thing throttled. */
  bucket: string;
  /** What is counted, as the 429's message names it ("sign-ups"). */
  what: string;
  /** Attempts one client IP may make per window. */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

/**
 * Attempts per client IP per fixed window, counted before any work (an argon2 hash and a new
 * family for a sign-up; a flow row and the provider's discovery document for an SSO sign-in's
 * start), in PostgreSQL's throttle counters: one atomic upsert per attempt, so parallel requests
 * on any instance never pass the limit. The identity sweep deletes windows that have ended.
 */
export function createIpThrottle(db: IdentityDb, { bucket, what, limit, windowSeconds, now = Date.now }: IpThrottleOptions) {
  const counters = createRateLimitRepository(db);
  const windowMs = windowSeconds * 1000;
  return {
    /** Counts an attempt from this IP; 429 rate_limit_exceeded past the limit, saying when the window ends. */
    async admit(ip: string | null): Promise<void> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      // Without an address every such request shares one count rather than going uncounted.
      const attempts = await counters.add(`${bucket}:${ip ? clientIpBucket(ip) : "unknown"}`, new Date(windowStart), 1);
      if (attempts <= limit) return;
      const resetInSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
      throw new AppError("rate_limit_exceeded", {
        message: `Too many ${what} from this address. Try again in ${resetInSeconds} seconds.`,
        details: { limit, reset_in_seconds: resetInSeconds },
      });
    },
  };
}
export type IpThrottle = ReturnType<typeof createIpThrottle>;
