import { deleteInShrinkingBatches, type InternalHandlers } from "@hearth/service-kit";
import { tablesPurgedBy, type FamilyDataRepository } from "./family-data-repository";

export interface FamilyPurgeLimits {
  /** Rows per DELETE statement. */
  batchSize: number;
  /** A step stops starting batches after this long and answers `done: false` (the caller's timeout is longer). */
  stepBudgetMs: number;
  /** How long a batch waits for a lock held by other work on the family's rows before the step gives way. */
  lockTimeoutMs: number;
  /** How long one batch may run (within the purger's call timeout, so no statement outlives its call). */
  statementTimeoutMs: number;
}

export const DEFAULT_FAMILY_PURGE_LIMITS: FamilyPurgeLimits = { batchSize: 10_000, stepBudgetMs: 3_000, lockTimeoutMs: 2_000, statementTimeoutMs: 5_000 };

type FamilyDataHandlers = Pick<InternalHandlers<"finance">, "familyData.purge" | "familyData.counts">;

/**
 * finance's part of a family purge (called by the gateway's purger, step after step) and of the
 * reset status. A step deletes table after table in batches until its time budget is spent; it
 * answers done only after a pass that reached the last table, so a purge cut short by a crash,
 * a timeout or a lock it would wait on too long simply carries on at the next step.
 */
export function createFamilyDataHandlers(data: FamilyDataRepository, limits: FamilyPurgeLimits = DEFAULT_FAMILY_PURGE_LIMITS): FamilyDataHandlers {
  return {
    "familyData.purge": async ({ input }) => {
      const deadline = Date.now() + limits.stepBudgetMs;
      const timeouts = { lockMs: limits.lockTimeoutMs, statementMs: limits.statementTimeoutMs };
      let deleted = 0;
      for (const table of tablesPurgedBy(input.scope)) {
        const step = await deleteInShrinkingBatches((size) => data.deleteBatch(table, input.familyId, size, timeouts), {
          batchSize: limits.batchSize,
          deadline,
        });
        deleted += step.deleted;
        if (!step.finished) return { done: false, deleted };
      }
      return { done: true, deleted };
    },
    "familyData.counts": async ({ input }) => ({ counts: await data.counts(input.familyId) }),
  };
}
