import type { JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import type { AccountRepository } from "./account-repository";
import { ACCOUNT_REMOVAL_QUEUE, queueOrphanedRemovals } from "./account-removal-queries";

/**
 * Removes an account scheduled for deletion, with everything it holds, in one transaction that
 * also ends its job (a worker that died leaves nothing half-removed; its job is taken over).
 * One removal at a time per family, families in turns.
 */
export function accountRemovalJob(db: FinanceDb, accounts: Pick<AccountRepository, "removeScheduled">): JobDefinition<object, FinanceTx> {
  return {
    queue: ACCOUNT_REMOVAL_QUEUE,
    payload: z.object({}),
    async run(job) {
      if (!job.subjectId) return;
      const accountId = job.subjectId;
      await db.$transaction(
        async (tx) => {
          await job.complete(tx);
          await accounts.removeScheduled(tx, job.familyId, accountId);
        },
        // An account of a million entries takes far longer to delete than Prisma's 5 s default.
        { timeout: 600_000, maxWait: 30_000 },
      );
    },
    reconcile: () => queueOrphanedRemovals(db),
  };
}
