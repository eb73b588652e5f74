import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@hearth/service-kit";
import { describeServiceHealth } from "@hearth/test-kit";
import { financeBasics, startFinance } from "./support";

describeServiceHealth(financeBasics);

describe("a saturated database", () => {
  // P2028 "Unable to start a transaction in the given time": every connection of the pool is busy
  // for longer than the transaction's maxWait. Nothing was written, and a retry shortly is the
  // answer: a 503. P2028's other cases (a transaction past its timeout) are bugs and stay 500s.
  it("is unavailable, not broken, when no connection frees within maxWait; a transaction past its timeout is not", async () => {
    const finance = await startFinance();
    try {
      const hold = () => finance.db.$transaction(async (tx) => tx.$executeRaw`SELECT pg_sleep(0.5)`, { timeout: 5_000 });
      const holders = Array.from({ length: 10 }, hold); // the pool's ten connections
      await new Promise((resolve) => setTimeout(resolve, 100));
      const starved = await finance.db.$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 50 }).catch((caught: unknown) => caught);
      await Promise.all(holders);
      expect(starved).toMatchObject({ code: "P2028", message: expect.stringMatching(/Unable to start a transaction/) });
      expect(isDatabaseUnavailable(starved)).toBe(true);

      const late = await finance.db
        .$transaction(
          async (tx) => {
            await new Promise((resolve) => setTimeout(resolve, 300)); // the handler is slow, the database fine
            return tx.$queryRaw`SELECT 1`;
          },
          { timeout: 50 },
        )
        .catch((caught: unknown) => caught);
      expect((late as { code?: string }).code).toBe("P2028");
      expect(isDatabaseUnavailable(late)).toBe(false);
    } finally {
      await finance.stop();
    }
  });
});
