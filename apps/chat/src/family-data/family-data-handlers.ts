import { deleteInShrinkingBatches, type InternalHandlers } from "@hearth/service-kit";
import type { FamilyDataRepository } from "./family-data-repository";

/** Chats per DELETE. */
const BATCH = 1_000;
const STEP_BUDGET_MS = 3_000;
/** A batch gives way to other work's locks, and never outlives the purger's 10 s call. */
const TIMEOUTS = { lockMs: 2_000, statementMs: 5_000 };

/**
 * chat's part of a family purge and of the reset status: a family's chats (with their messages)
 * hold its financial figures, so both a reset and a deleted family remove them.
 */
export function createFamilyDataHandlers(data: FamilyDataRepository): Pick<InternalHandlers<"chat">, "familyData.purge" | "familyData.counts"> {
  return {
    "familyData.purge": async ({ input }) => {
      // Chats cascade to their messages: deleteInShrinkingBatches retries a batch too slow a tenth the size.
      const step = await deleteInShrinkingBatches((size) => data.deleteChats(input.familyId, size, TIMEOUTS), {
        batchSize: BATCH,
        deadline: Date.now() + STEP_BUDGET_MS,
      });
      // The family's jobs go last (their answers went with the chats).
      if (step.finished) await data.deleteJobs(input.familyId);
      return { done: step.finished, deleted: step.deleted };
    },
    "familyData.counts": async ({ input }) => ({ counts: await data.counts(input.familyId) }),
  };
}
