import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@hearth/service-kit";
import { describeServiceHealth } from "@hearth/test-kit";
import { financeBasics, startFinance } from "./support";

describeServiceHealth(financeBasics);

describe("a saturated database", () => {
  // P2028: what Prisma throws when an interactive transaction outlives its timeout or finds no
  // connection within maxWait. Nothing was written (it rolled back), and a retry shortly is the
  // answer: a 503, where it used to fall through to a 500.
  it("is unavailable, not broken: a transaction past its timeout fails with P2028, which counts as the database unavailable (a 503)", async () => {
    const finance = await startFinance();
    try {
      const err = await finance.db
        .$transaction(
          async (tx) => {
            await new Promise((resolve) => setTimeout(resolve, 300)); // the handler is slow, the database fine
            return tx.$queryRaw`SELECT 1`;
          },
          { timeout: 50 },
        )
        .catch((caught: unknown) => caught);
      expect((err as { code?: string }).code).toBe("P2028");
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await finance.stop();
    }
  });
});
