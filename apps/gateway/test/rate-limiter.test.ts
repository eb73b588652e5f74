import { describe, expect, it } from "vitest";
import type { IdentityDb } from "../src/db";
import { createRateLimiter } from "../src/http/rate-limiter";

/** A shared counter whose batched writes (the 200 ms flush) can be held open, as a slow database would. */
function counterDb() {
  let hits = 0;
  const held: (() => void)[] = [];
  const db = {
    $queryRaw: async (strings: TemplateStringsArray, ...values: unknown[]) => {
      if (!strings.join("?").includes("INSERT")) return [{ hits }];
      const added = values[2] as number;
      if (added > 1) await new Promise<void>((resolve) => held.push(resolve)); // a flush: hold it
      hits += added;
      return [{ hits }];
    },
  } as unknown as IdentityDb;
  return { db, held };
}

describe("rate limiter", () => {
  it("counts the requests a flush is still writing (the usage test saw 3 in the header and 4 in the body)", async () => {
    const { db, held } = counterDb();
    const limiter = createRateLimiter(db, { limit: 50, windowSeconds: 3600 });
    try {
      expect((await limiter.consume("key")).current).toBe(1); // the window's first request is written at once
      await limiter.consume("key");
      await limiter.consume("key"); // two counted here, waiting for the flush
      for (let waited = 0; held.length === 0 && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(held).toHaveLength(1); // the flush is writing them now
      const fourth = await limiter.consume("key");
      expect(fourth).toMatchObject({ current: 4, remaining: 46 });
      held.splice(0).forEach((release) => release());
      expect((await limiter.usage("key")).current).toBe(4);
    } finally {
      held.splice(0).forEach((release) => release());
      await limiter.stop();
    }
  });
});
