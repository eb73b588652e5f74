import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLogger } from "@hearth/service-kit";
import { testRedisUrl } from "@hearth/test-kit";
import { createRateLimiter, familyRateLimitBucket } from "../src/http/rate-limiter";

const log = createLogger("rate-limiter-test", "silent");
const REDIS_URL = testRedisUrl();

describe("rate limiter in memory (the embedded default)", () => {
  it("counts each request of a bucket, answers current past the limit, and reads usage without counting", async () => {
    const limiter = createRateLimiter({ limit: 3, sessionLimit: 3, familyLimit: 1000, windowSeconds: 3600, log });
    const currents = [];
    for (let i = 0; i < 4; i++) currents.push((await limiter.consume("api_key:key")).current);
    expect(currents).toEqual([1, 2, 3, 4]);
    const usage = await limiter.usage("api_key:key");
    expect(usage).toMatchObject({ limit: 3, current: 4, remaining: 0 });
    expect(usage.resetInSeconds).toBeGreaterThan(0);
    expect(usage.resetInSeconds).toBeLessThanOrEqual(3600);
    expect(usage.resetAt.getTime() % 3_600_000).toBe(0);
    expect(await limiter.usage("api_key:other")).toMatchObject({ current: 0, remaining: 3, resetAt: usage.resetAt });
    await limiter.stop();
  });

  it("gives a user's sessions (bearer tokens) their own budget, apart from the API keys' limit", async () => {
    const limiter = createRateLimiter({ limit: 2, sessionLimit: 5, familyLimit: 1000, windowSeconds: 3600, log });
    for (let i = 0; i < 3; i++) await limiter.consume("api_key:k");
    expect(await limiter.usage("api_key:k")).toMatchObject({ limit: 2, current: 3, remaining: 0 });
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await limiter.consume("user:u"));
    expect(sessions.map((usage) => [usage.limit, usage.current, usage.remaining])).toEqual([
      [5, 1, 4],
      [5, 2, 3],
      [5, 3, 2],
      [5, 4, 1],
      [5, 5, 0],
    ]);
    expect((await limiter.consume("user:u")).current).toBe(6);
    // A bucket of no kind is a bug of the caller, not another budget.
    await expect(limiter.consume("u")).rejects.toThrow(/not a rate limit bucket/);
    await limiter.stop();
  });

  it("counts a family's credentials together under the family's own ceiling", async () => {
    const limiter = createRateLimiter({ limit: 100, sessionLimit: 100, familyLimit: 3, windowSeconds: 3600, log });
    const counts = [];
    for (let i = 0; i < 4; i++) counts.push((await limiter.consume(familyRateLimitBucket({ familyId: "f" }))).current);
    expect(counts).toEqual([1, 2, 3, 4]);
    expect(await limiter.usage("family:f")).toMatchObject({ limit: 3, current: 4, remaining: 0 });
    expect(await limiter.usage("family:g")).toMatchObject({ limit: 3, current: 0, remaining: 3 });
    await limiter.stop();
  });
});

describe("rate limiter through Redis (REDIS_URL)", () => {
  it("is one count across instances, exact under parallel requests", async () => {
    const [a, b] = [
      createRateLimiter({ limit: 100, sessionLimit: 100, familyLimit: 1000, windowSeconds: 60, redisUrl: REDIS_URL, log }),
      createRateLimiter({ limit: 100, sessionLimit: 100, familyLimit: 1000, windowSeconds: 60, redisUrl: REDIS_URL, log }),
    ];
    const bucket = `api_key:${randomUUID()}`;
    try {
      await Promise.all([a.start(), b.start()]);
      const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? a : b).consume(bucket)));
      // Every count from 1 to 120 handed out once: none lost, none twice.
      expect(answers.map((usage) => usage.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(answers.filter((usage) => usage.current > 100)).toHaveLength(20);
      expect((await a.usage(bucket)).current).toBe(120);
      expect((await b.usage(bucket)).current).toBe(120);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("counts in memory while Redis cannot be reached, neither refusing nor letting requests through uncounted", async () => {
    const limiter = createRateLimiter({ limit: 2, sessionLimit: 2, familyLimit: 1000, windowSeconds: 60, redisUrl: "redis://127.0.0.1:1", log });
    try {
      await limiter.start();
      const currents = [];
      for (let i = 0; i < 3; i++) currents.push((await limiter.consume("api_key:key")).current);
      expect(currents).toEqual([1, 2, 3]);
      expect((await limiter.usage("api_key:key")).current).toBe(3);
    } finally {
      await limiter.stop();
    }
  });
});
