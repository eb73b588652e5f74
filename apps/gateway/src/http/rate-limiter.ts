import { AppError, type Actor } from "@hearth/contracts";
import type { Logger } from "@hearth/service-kit";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

export interface RateLimitOptions {
  /** Requests an API key may make per window. */
  limit: number;
  /**
   * Requests a user's signed-in sessions (bearer tokens) may make together per window. Sure limits
   * API keys only; its app spends about 55 requests on one pull-to-refresh, so this is set far
   * above what a person using the app reaches, as a ceiling on a runaway client only.
   */
  sessionLimit: number;
  /**
   * Requests one family's credentials (every key and session of its members) may make together
   * per window: however many keys a family makes, its share of the system is bounded.
   */
  familyLimit: number;
  windowSeconds: number;
  /** Counts shared by every gateway instance through this Redis; unset, each instance counts in its own memory. */
  redisUrl?: string | undefined;
  log: Logger;
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

/** The bucket every credential of a family is counted in as well. */
export function familyRateLimitBucket(actor: Pick<Actor, "familyId">): string {
  return `family:${actor.familyId}`;
}

const KEY_PREFIX = "hearth:rate-limit";
// A request waits at most this long for Redis before it is counted in memory instead.
const REDIS_TIMEOUT_MS = 200;

/**
 * Fixed-window request counting per credential (rate-limiter-flexible), in windows aligned to
 * the clock (each hour, for the default hour-long window), one counter per bucket and window
 * that expires after it. In memory by default; with `redisUrl` the
 * count is one Redis key per bucket, incremented atomically by every gateway instance. If Redis
 * cannot answer, requests are counted in this instance's memory meanwhile (the insurance limiter)
 * rather than refused or let through uncounted.
 */
export function createRateLimiter(options: RateLimitOptions) {
  let redis: Redis | undefined;
  if (options.redisUrl) {
    // No offline queue: while Redis is away a command fails at once and the insurance limiter counts.
    redis = new Redis(options.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: REDIS_TIMEOUT_MS,
    });
    let reported = false;
    redis.on("error", (err: unknown) => {
      if (!reported) options.log.warn({ err }, "rate limiter cannot reach Redis; counting in memory until it answers");
      reported = true;
    });
    redis.on("ready", () => {
      if (reported) options.log.info("rate limiter reached Redis again");
      reported = false;
    });
  }
  /** A counter allowing `points` per window: in Redis when there is one, in memory meanwhile or else. */
  const counter = (points: number): RateLimiterAbstract => {
    const common = { keyPrefix: KEY_PREFIX, points, duration: options.windowSeconds };
    const memory = new RateLimiterMemory(common);
    return redis ? new RateLimiterRedis({ ...common, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
  };
  const apiKeys = { limit: options.limit, counter: counter(options.limit) };
  const sessions = { limit: options.sessionLimit, counter: counter(options.sessionLimit) };
  const families = { limit: options.familyLimit, counter: counter(options.familyLimit) };
  /** API keys, sessions and families count in buckets of their own names (rateLimitBucket, familyRateLimitBucket), each under its limit. */
  const limitOf = (bucket: string) => {
    if (bucket.startsWith("api_key:")) return apiKeys;
    if (bucket.startsWith("user:")) return sessions;
    if (bucket.startsWith("family:")) return families;
    throw new Error(`not a rate limit bucket: ${bucket}`);
  };

  const windowMs = options.windowSeconds * 1000;

  /** The clock-aligned window a moment falls in (reset_at is a whole multiple of the window), and its key for the bucket. */
  function windowOf(bucket: string, at: number) {
    const index = Math.floor(at / windowMs);
    return { key: `${bucket}:${index}`, end: (index + 1) * windowMs };
  }

  function usageOf(limit: number, consumed: number, windowEnd: number, at: number): RateLimitUsage {
    return {
      limit,
      current: consumed,
      remaining: Math.max(0, limit - consumed),
      resetInSeconds: Math.max(1, Math.ceil((windowEnd - at) / 1000)),
      resetAt: new Date(windowEnd),
    };
  }

  return {
    /** Counts one request of the bucket; answers its usage, `current` past `limit` when the request is over it. */
    async consume(bucket: string): Promise<RateLimitUsage> {
      const at = Date.now();
      const window = windowOf(bucket, at);
      const { limit, counter } = limitOf(bucket);
      try {
        return usageOf(limit, (await counter.consume(window.key)).consumedPoints, window.end, at);
      } catch (rejection) {
        // Over the limit: the library rejects with the bucket's state (the request is counted).
        if (rejection instanceof RateLimiterRes) return usageOf(limit, rejection.consumedPoints, window.end, at);
        throw rejection;
      }
    },
    /** The bucket's usage now, as consume() counts it, without counting a request. */
    async usage(bucket: string): Promise<RateLimitUsage> {
      const at = Date.now();
      const window = windowOf(bucket, at);
      const { limit, counter } = limitOf(bucket);
      return usageOf(limit, (await counter.get(window.key))?.consumedPoints ?? 0, window.end, at);
    },
    /** Waits for Redis (if configured) to answer before the first request; an unreachable Redis is logged, not fatal. */
    async start(): Promise<void> {
      const client = redis;
      if (!client || client.status === "ready") return;
      // Bounded: an unreachable Redis was logged ("error") and is retried in the background.
      await new Promise<void>((resolve) => {
        const done = () => (clearTimeout(timer), client.off("ready", done), client.off("error", done), resolve());
        const timer = setTimeout(done, 2_000);
        client.once("ready", done).once("error", done);
      });
    },
    async stop(): Promise<void> {
      if (redis) await redis.quit().catch(() => redis?.disconnect());
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

export function rateLimitExceeded(usage: RateLimitUsage, whose: "credential" | "family" = "credential"): AppError {
  const what = whose === "family" ? "Your family's rate limit (all its keys and sessions together) exceeded." : "Rate limit exceeded.";
  return new AppError("rate_limit_exceeded", {
    message: `${what} Try again in ${usage.resetInSeconds} seconds.`,
    details: { limit: usage.limit, current: usage.current, reset_in_seconds: usage.resetInSeconds },
  });
}
