import type { Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createPollingLoop } from "@hearth/service-kit";
import { takePublishLock, type ClaimedImport, type ImportRepository } from "./import-repository";
import { PublishError } from "./publish/publish-error";
import { publisherOf } from "./publish/publishers";

export interface ImportWorkerOptions {
  pollMs: number;
  /** How long a publish is held (it runs in one transaction, at most `timeoutMs`). */
  leaseMs: number;
  timeoutMs: number;
}

class TakenOver extends Error {
  constructor() {
    super("the import was taken over by another worker");
  }
}

export const DEFAULT_IMPORT_WORKER: ImportWorkerOptions = { pollMs: 5_000, leaseMs: 15 * 60_000, timeoutMs: 10 * 60_000 };

/**
 * Publishes queued imports one at a time, each in one transaction: every row written, or none
 * (the import then `failed` with its error). Progress goes to the import row as batches are
 * written. A worker that dies midway leaves nothing (its transaction is rolled back); the import
 * is claimed again once its publish lock is free (the worker's connection is gone), or at the
 * latest once the lease lapses.
 */
export function createImportWorker(db: FinanceDb, imports: ImportRepository, log: Logger, options: ImportWorkerOptions = DEFAULT_IMPORT_WORKER) {
  async function publish(claim: ClaimedImport): Promise<void> {
    const found = await imports.find(claim.familyId, claim.id);
    if (!found) return;
    try {
      const publish = publisherOf(found.type);
      if (!publish) throw new PublishError(`${found.type} publishing is not available yet.`);
      await db.$transaction(
        async (tx) => {
          // Held until this transaction ends: while it is, no other worker takes the import over.
          // A worker slow to get here may have been taken over meanwhile: it stops before writing anything.
          if (!(await takePublishLock(tx, claim.id)) || !(await imports.stillClaimed(tx, claim))) throw new TakenOver();
          const outcome = await publish(tx, { id: claim.id, familyId: claim.familyId, accountId: found.accountId }, (rowsDone) =>
            imports.progress(claim, rowsDone),
          );
          if (!(await imports.complete(tx, claim, outcome, found.rowsCount))) throw new TakenOver();
        },
        { timeout: options.timeoutMs, maxWait: 10_000 },
      );
      log.info({ importId: claim.id }, "import published");
    } catch (err) {
      // Another worker has it now: its outcome is the import's, not this one's failure.
      if (err instanceof TakenOver) {
        log.warn({ importId: claim.id }, "import taken over by another worker; this publish is rolled back");
        return;
      }
      if (!(err instanceof PublishError)) log.error({ err, importId: claim.id }, "import publish failed");
      await imports.fail(claim, err instanceof PublishError ? err.message : "The import could not be published");
    }
  }

  return createPollingLoop({
    name: "import worker",
    pollMs: options.pollMs,
    log,
    step: async () => {
      const claim = await imports.claim(options.leaseMs);
      if (!claim) return false;
      await publish(claim);
      return true;
    },
  });
}
export type ImportWorker = ReturnType<typeof createImportWorker>;
