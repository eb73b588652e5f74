import type { Logger } from "@hearth/service-kit";
import { JOB_TRANSACTION, JobFailure, JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { chunkedSink } from "./chunked-sink";
import { writeFamilyExport } from "./export-archive";
import { FAMILY_EXPORT_QUEUE, queueOrphanedExports } from "./family-export-queue-queries";
import { EXPORT_STUCK_AFTER_MS, type FamilyExportRepository } from "./family-export-repository";

export interface FamilyExportBuildOptions {
  /** Size of a stored slice of the archive (default CHUNK_BYTES; the takeover test cuts small ones). */
  sliceBytes?: number;
}

/**
 * Family export builds on the job runner: one job per export. The archive streams from the
 * family's rows (one snapshot) into 1 MiB slices, each stored in a transaction of its own that
 * checks the job's fence, so memory stays flat and a worker that lost its job adds no slice to
 * another's build. A build taken over (its worker died) starts again from the start, its slices
 * dropped. An export not built two hours after it was asked for fails (Sure's
 * FamilyExport.clean); a build that fails is not retried. One build at a time per family,
 * families in turns.
 */
export function familyExportJob(
  db: FinanceDb,
  exports: FamilyExportRepository,
  log: Logger,
  options: FamilyExportBuildOptions = {},
): JobDefinition<object, FinanceTx> {
  return {
    queue: FAMILY_EXPORT_QUEUE,
    payload: z.object({}),
    async run(job) {
      const exportId = job.subjectId;
      const found = exportId ? await exports.unbuilt(job.familyId, exportId) : null;
      // Deleted with its family, or ended by an earlier worker.
      if (!exportId || !found) return;
      if (Date.now() - found.createdAt.getTime() > EXPORT_STUCK_AFTER_MS) throw new JobFailure("The export did not finish in time");
      try {
        await job.inFence((tx) => exports.start(tx, exportId));
        const sink = chunkedSink(async (seq, slice) => {
          // Between two slices: a cancel, a lost job or a stopping service ends the build there.
          job.signal.throwIfAborted();
          await job.inFence((tx) => exports.appendChunk(tx, exportId, seq, slice));
        }, options.sliceBytes);
        const result = await writeFamilyExport(db, job.familyId, sink);
        const completed = await db.$transaction(async (tx) => {
          await job.complete(tx);
          return exports.complete(tx, job.familyId, exportId, result.bytes, result.rows);
        }, JOB_TRANSACTION);
        if (completed) log.info({ exportId, bytes: result.bytes, rows: result.rows }, "family export completed");
      } catch (err) {
        // Stopped by its signal: the runner ends it as the signal's reason says (released, cancelled, lost).
        if (job.signal.aborted) throw job.signal.reason;
        if (err instanceof JobLost) throw err;
        log.error({ err, exportId }, "family export failed");
        throw new JobFailure("The export could not be built");
      }
    },
    failed: (tx, job, reason) => (job.subjectId ? exports.fail(tx, job.subjectId, reason) : Promise.resolve()),
    reconcile: () => queueOrphanedExports(db),
  };
}
