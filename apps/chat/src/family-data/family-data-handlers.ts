import { isLockTimeout, isStatementTimeout, type InternalHandlers } from "@hearth/service-kit";
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
      const deadline = Date.now() + STEP_BUDGET_MS;
      let deleted = 0;
      // Chats cascade to their messages: a batch too slow is retried a tenth the size, down to one chat.
      let size = BATCH;
      for (;;) {
        let gone: number;
        try {
          gone = await data.deleteChats(input.familyId, size, TIMEOUTS);
        } catch (err) {
          // Other work holds the rows: the next step carries on.
          if (isLockTimeout(err)) return { done: false, deleted };
          if (!isStatementTimeout(err) || size === 1) throw err;
          size = Math.max(1, Math.floor(size / 10));
          if (Date.now() >= deadline) return { done: false, deleted };
          continue;
        }
        deleted += gone;
        if (gone < size) return { done: true, deleted };
        if (Date.now() >= deadline) return { done: false, deleted };
      }
    },
    "familyData.counts": async ({ input }) => ({ counts: await data.counts(input.familyId) }),
  };
}
