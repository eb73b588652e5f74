import { AppError, type Actor } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import { createRateLimitRepository } from "./rate-limit-repository";

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
  /** When the current window ends and the count starts again from zero. */
  resetAt: Date;
}

/** The bucket a credential is counted in: each API key apart, a user's bearer tokens together. */
export function rateLimitBucket(actor: Pick<Actor, "userId" | "apiKeyId">): string {
  return actor.apiKeyId ? `api_key:${actor.apiKeyId}` : `user:${actor.userId}`;
}

const CLEANUP_EVERY_MS = 60_000;
const FLUSH_EVERY_MS = 200;

interface BucketState {
  windowStart: number;
  /** The shared count as of this instance's last write to PostgreSQL. */
  known: number;
  /** Requests admitted here since then, not yet added to the shared count. */
  pending: number;
  /** Requests a flush took from `pending` whose write is still under way: counted, not yet known. */
  inFlight: number;
  /** This instance's writes of the bucket to PostgreSQL still under way, if any. */
  writing: Promise<void> | undefined;
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

  const counters = createRateLimitRepository(db);
  const add = (bucket: string, windowStart: number, hits: number) => counters.add(bucket, new Date(windowStart), hits);
  const read = (bucket: string, windowStart: number) => counters.read(bucket, new Date(windowStart));

  async function flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const [bucket, state] of buckets) {
      if (state.pending === 0) {
        if (state.windowStart + windowMs <= now()) buckets.delete(bucket);
        continue;
      }
      const pending = state.pending;
      state.pending = 0;
      state.inFlight += pending;
      const added = add(bucket, state.windowStart, pending).then(
        (hits) => {
          state.known = hits;
          state.inFlight -= pending;
        },
        () => {
          state.inFlight -= pending;
          state.pending += pending; // retried at the next flush
        },
      );
      // Chained onto any earlier write still under way, so usage() can wait for all of them.
      const write: Promise<void> = Promise.all([state.writing, added]).then(() => {
        if (state.writing === write) state.writing = undefined;
      });
      state.writing = write;
      writes.push(write);
    }
    await Promise.all(writes);
    if (now() - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = now();
      await counters.deleteWindowsBefore(new Date(now() - windowMs)).catch(() => {});
    }
  }

  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  function usageOf(current: number, windowStart: number, at: number): RateLimitUsage {
    return {
      limit: options.limit,
      current,
      remaining: Math.max(0, options.limit - current),
      resetInSeconds: Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000)),
      resetAt: new Date(windowStart + windowMs),
    };
  }

  return {
    async consume(bucket: string): Promise<RateLimitUsage> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      let state = buckets.get(bucket);
      if (!state || state.windowStart !== windowStart) {
        state = { windowStart, known: 0, pending: 0, inFlight: 0, writing: undefined };
        buckets.set(bucket, state);
      }
      // Requests a flush is writing right now count too, or this answer would show fewer than admitted.
      let current = state.known + state.inFlight + state.pending + 1;
      if (state.known === 0 || current >= options.limit - margin) {
        const pending = state.pending + 1;
        state.pending = 0;
        current = await add(bucket, windowStart, pending);
        state.known = current;
      } else {
        state.pending += 1;
      }
      return usageOf(current, windowStart, at);
    },
    /**
     * A bucket's usage now, as consume() counts it, without counting a request: the shared
     * count in PostgreSQL plus what this instance has admitted but not yet written. Writes
     * under way are awaited first, and the unwritten requests are added in the same statement
     * that reads the count, so none is missed or counted twice.
     */
    async usage(bucket: string): Promise<RateLimitUsage> {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      const state = buckets.get(bucket);
      if (!state || state.windowStart !== windowStart) return usageOf(await read(bucket, windowStart), windowStart, at);
      while (state.writing) await state.writing;
      const pending = state.pending;
      state.pending = 0;
      try {
        state.known = pending > 0 ? await add(bucket, windowStart, pending) : await read(bucket, windowStart);
      } catch (err) {
        state.pending += pending; // still counted: written at the next flush
        throw err;
      }
      return usageOf(state.known, windowStart, at);
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
