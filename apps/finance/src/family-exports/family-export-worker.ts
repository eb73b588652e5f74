import { createPollingLoop, type Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { chunkedSink } from "./chunked-sink";
import { writeFamilyExport } from "./export-archive";
import { ExportTakenOver, type ClaimedExport, type FamilyExportRepository } from "./family-export-repository";

export interface FamilyExportWorkerOptions {
  pollMs: number;
  /** How long a build is held without renewal (renewed at every stored slice). */
  leaseMs: number;
}

export const DEFAULT_FAMILY_EXPORT_WORKER: FamilyExportWorkerOptions = { pollMs: 5_000, leaseMs: 120_000 };

/**
 * Builds queued exports one at a time: the archive streams from the family's rows into 1 MiB
 * slices stored as it goes, so memory stays flat. A build whose worker died is claimed again once
 * its lease lapses and starts over; one older than two hours fails (Sure's FamilyExport.clean).
 */
export function createFamilyExportWorker(
  db: FinanceDb,
  exports: FamilyExportRepository,
  log: Logger,
  options: FamilyExportWorkerOptions = DEFAULT_FAMILY_EXPORT_WORKER,
) {
  async function build(claim: ClaimedExport): Promise<void> {
    let held = claim;
    const sink = chunkedSink(async (seq, slice) => {
      await exports.appendChunk(held, seq, slice);
      const lease = await exports.renew(held, options.leaseMs);
      if (!lease) throw new ExportTakenOver();
      held = { ...held, lease };
    });
    try {
      const result = await writeFamilyExport(db, claim.familyId, sink);
      if (await exports.complete(held, result.bytes, result.rows))
        log.info({ exportId: claim.id, bytes: result.bytes, rows: result.rows }, "family export completed");
    } catch (err) {
      log.error({ err, exportId: claim.id }, "family export failed");
      await exports.fail(held, "The export could not be built");
    }
  }

  const loop = createPollingLoop({
    name: "family export worker",
    pollMs: options.pollMs,
    log,
    step: async () => {
      await exports.failStuck();
      const claim = await exports.claim(options.leaseMs);
      if (!claim) return false;
      await build(claim);
      return true;
    },
  });
  return loop;
}
export type FamilyExportWorker = ReturnType<typeof createFamilyExportWorker>;
