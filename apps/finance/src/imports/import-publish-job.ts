import { JobFailure, JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import type { Logger } from "@hearth/service-kit";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { BALANCE_SYNC_QUEUE } from "../syncs/sync-queue-queries";
import { IMPORT_PUBLISH_QUEUE, queueOrphanedPublishes } from "./import-publish-queue-queries";
import type { ImportRepository } from "./import-repository";
import { PublishError } from "./publish/publish-error";
import { publisherOf } from "./publish/publishers";
import { publishRowCap } from "./publish-row-cap";

export interface ImportPublishOptions {
  /** A publish runs in one transaction of at most this long. */
  timeoutMs: number;
}

export const DEFAULT_IMPORT_PUBLISH: ImportPublishOptions = { timeoutMs: 10 * 60_000 };

/**
 * Publishes an import in one transaction: every row written, or none (the import then `failed`
 * with its reason: a publish that failed once fails again, so it is not retried). Progress goes
 * to the import row as batches are written. A worker that dies midway leaves nothing (its
 * transaction is rolled back), and its job is taken over at once (the job runner's takeover).
 * One publish at a time per family; families take turns.
 */
export function importPublishJob(db: FinanceDb, imports: ImportRepository, log: Logger, options = DEFAULT_IMPORT_PUBLISH): JobDefinition<object, FinanceTx> {
  return {
    queue: IMPORT_PUBLISH_QUEUE,
    payload: z.object({}),
    maxAttempts: 3,
    // A publish queues the syncs of the accounts it wrote to: they start when it ends.
    pokes: [BALANCE_SYNC_QUEUE],
    async run(job) {
      const found = job.subjectId ? await imports.find(job.familyId, job.subjectId) : null;
      // Deleted, or no longer waiting to be published.
      if (!found || found.status !== "importing") return;
      const publish = publisherOf(found.type);
      if (!publish) throw new JobFailure(`${found.type} publishing is not available yet.`);
      // Checked where every publish goes, whichever way it was asked for (Sure's Import#publish).
      if (found.rowsCount > publishRowCap(found.type)) throw new JobFailure("Import has too many rows to publish.");
      // Between two batches: a cancel, a lost job or a stopping service ends the publish there (its
      // transaction rolls back), not after the last batch.
      const progress = (rowsDone: number) =>
        job.inFence(async (tx) => {
          job.signal.throwIfAborted();
          await imports.progress(tx, found.id, rowsDone);
        });
      try {
        await db.$transaction(
          async (tx) => {
            const outcome = await publish(tx, { id: found.id, familyId: found.familyId, accountId: found.accountId }, progress);
            await job.complete(tx);
            // Deleted or changed meanwhile: nothing of this publish stays.
            if (!(await imports.complete(tx, found.id, outcome, found.rowsCount))) throw new JobLost(job.id);
          },
          { timeout: options.timeoutMs, maxWait: 10_000 },
        );
        log.info({ importId: found.id }, "import published");
      } catch (err) {
        // Stopped by its signal: the runner ends it as the signal's reason says (released, cancelled, lost).
        if (job.signal.aborted) throw job.signal.reason;
        if (err instanceof JobLost || err instanceof PublishError) throw err instanceof PublishError ? new JobFailure(err.message) : err;
        log.error({ err, importId: found.id }, "import publish failed");
        throw new JobFailure("The import could not be published");
      }
    },
    failed: (tx, job, reason) => (job.subjectId ? imports.fail(tx, job.subjectId, reason) : Promise.resolve()),
    reconcile: () => queueOrphanedPublishes(db),
  };
}
