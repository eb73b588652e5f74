import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../../db";
import { createRateLimitRepository } from "../../http/rate-limit-repository";
import { clientIpBucket } from "../../net/client-ip-bucket";

export interface SsoAuthorizeThrottleOptions {
  /** Sign-in starts one client IP may make per window. */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

/**
 * GET /auth/sso/:id/authorize is public, writes a flow row and asks the provider for its
 * discovery document: each client IP gets `limit` per fixed window, counted before any of that
 * in PostgreSQL's throttle counters (bucket `sso_authorize:<ip>`, one atomic upsert per
 * attempt, so parallel requests on any instance never pass the limit). The identity sweep
 * deletes windows that have ended.
 */
export function createSsoAuthorizeThrottle(db: IdentityDb, { limit, windowSeconds, now = Date.now }: SsoAuthorizeThrottleOptions) {
  const counters = createRateLimitRepository(db);
  const windowMs = windowSeconds * 1000;
  return {
    /** Counts a sign-in start from this IP; 429 rate_limit_exceeded past the limit, saying when the window ends. */
    async admit(ip: string | null): Promise<void> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      // Without an address every such request shares one count rather than going uncounted.
      const attempts = await counters.add(`sso_authorize:${ip ? clientIpBucket(ip) : "unknown"}`, new Date(windowStart), 1);
      if (attempts <= limit) return;
      const resetInSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
      throw new AppError("rate_limit_exceeded", {
        message: `Too many SSO sign-ins from this address. Try again in ${resetInSeconds} seconds.`,
        details: { limit, reset_in_seconds: resetInSeconds },
      });
    },
  };
}
export type SsoAuthorizeThrottle = ReturnType<typeof createSsoAuthorizeThrottle>;
