import type { InternalHandlers } from "@hearth/service-kit";
import { tablesPurgedBy, type FamilyDataRepository } from "./family-data-repository";

export interface FamilyPurgeLimits {
  /** Rows per DELETE statement. */
  batchSize: number;
  /** A step stops starting batches after this long and answers `done: false` (the caller's timeout is longer). */
  stepBudgetMs: number;
}

export const DEFAULT_FAMILY_PURGE_LIMITS: FamilyPurgeLimits = { batchSize: 10_000, stepBudgetMs: 3_000 };

type FamilyDataHandlers = Pick<InternalHandlers<"finance">, "familyData.purge" | "familyData.counts">;

/**
 * finance's part of a family purge (called by the gateway's purger, step after step) and of the
 * reset status. A step deletes table after table in batches until its time budget is spent; it
 * answers done only after a pass that reached the last table, so a purge cut short by a crash
 * or a timeout simply carries on at the next step.
 */
export function createFamilyDataHandlers(data: FamilyDataRepository, limits: FamilyPurgeLimits = DEFAULT_FAMILY_PURGE_LIMITS): FamilyDataHandlers {
  return {
    "familyData.purge": async ({ input }) => {
      const deadline = Date.now() + limits.stepBudgetMs;
      let deleted = 0;
      for (const table of tablesPurgedBy(input.scope)) {
        for (;;) {
          const gone = await data.deleteBatch(table, input.familyId, limits.batchSize);
          deleted += gone;
          if (gone < limits.batchSize) break;
          if (Date.now() >= deadline) return { done: false, deleted };
        }
      }
      if (input.scope === "financial_data") await data.markLedgerChanged(input.familyId);
      return { done: true, deleted };
    },
    "familyData.counts": async ({ input }) => ({ counts: await data.counts(input.familyId) }),
  };
}
