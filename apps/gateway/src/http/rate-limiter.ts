import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../db";

export interface RateLimitOptions {
  /** Requests a credential may make per window. */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

export interface RateLimitUsage {
  limit: number;
  current: number;
  remaining: number;
  resetInSeconds: number;
}

const CLEANUP_EVERY_MS = 60_000;
const FLUSH_EVERY_MS = 200;

interface BucketState {
  windowStart: number;
  /** The shared count as of this instance's last write to PostgreSQL. */
  known: number;
  /** Requests admitted here since then, not yet added to the shared count. */
  pending: number;
}

/**
 * Fixed-window request counting per credential, kept in PostgreSQL so every gateway instance
 * counts against the same limit. Far from the limit, requests are counted locally and added
 * to the shared row every 200 ms (one atomic upsert per bucket instead of one per request);
 * the first request of a window and every request near the limit go to PostgreSQL at once,
 * so the limit itself is enforced on the shared count.
 */
export function createRateLimiter(db: IdentityDb, options: RateLimitOptions) {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const margin = Math.max(10, Math.ceil(options.limit * 0.1));
  const buckets = new Map<string, BucketState>();
  let lastCleanup = 0;

  async function add(bucket: string, windowStart: number, hits: number): Promise<number> {
    const [row] = await db.$queryRaw<{ hits: number }[]>`
      INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${bucket}, ${new Date(windowStart)}, ${hits})
      ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + ${hits}
      RETURNING hits`;
    return row?.hits ?? hits;
  }

  async function flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [bucket, state] of buckets) {
      if (state.pending === 0) {
        if (state.windowStart + windowMs <= now()) buckets.delete(bucket);
        continue;
      }
      const pending = state.pending;
      state.pending = 0;
      writes.push(
        add(bucket, state.windowStart, pending).then(
          (hits) => void (state.known = hits),
          () => void (state.pending += pending), // retried at the next flush
        ),
      );
    }
    await Promise.all(writes);
    if (now() - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = now();
      await db.rateLimitCounter.deleteMany({ where: { windowStart: { lt: new Date(now() - windowMs) } } }).catch(() => {});
    }
  }

  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  return {
    async consume(bucket: string): Promise<RateLimitUsage> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      let state = buckets.get(bucket);
      if (!state || state.windowStart !== windowStart) {
        state = { windowStart, known: 0, pending: 0 };
        buckets.set(bucket, state);
      }
      let current = state.known + state.pending + 1;
      if (state.known === 0 || current >= options.limit - margin) {
        const pending = state.pending + 1;
        state.pending = 0;
        current = await add(bucket, windowStart, pending);
        state.known = current;
      } else {
        state.pending += 1;
      }
      return {
        limit: options.limit,
        current,
        remaining: Math.max(0, options.limit - current),
        resetInSeconds: Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000)),
      };
    },
    /** Writes what is still counted only here. */
    async stop(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The headers every rate-limited answer carries, and the 429 once the limit is passed. */
export function rateLimitHeaders(usage: RateLimitUsage): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(usage.limit),
    "X-RateLimit-Remaining": String(usage.remaining),
    "X-RateLimit-Reset": String(usage.resetInSeconds),
  };
}

export function rateLimitExceeded(usage: RateLimitUsage): AppError {
  return new AppError("rate_limit_exceeded", {
    message: `Rate limit exceeded. Try again in ${usage.resetInSeconds} seconds.`,
    details: { limit: usage.limit, current: usage.current, reset_in_seconds: usage.resetInSeconds },
  });
}
