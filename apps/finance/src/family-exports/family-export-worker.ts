import { createPollingLoop, type Logger } from "@hearth/service-kit";
import type { FinanceDb, FinanceTx } from "../db";
import { chunkedSink } from "./chunked-sink";
import { writeFamilyExport } from "./export-archive";
import { DEAD_BUILDER_TAKEOVER_MS, ExportTakenOver, takeBuildLock, type ClaimedExport, type FamilyExportRepository } from "./family-export-repository";

export interface FamilyExportWorkerOptions {
  pollMs: number;
  /** How long a build is held without renewal (renewed at every stored slice). */
  leaseMs: number;
  /** How long after its last heartbeat (claim or renewal) a build whose lock nobody holds is taken over (its worker died). */
  takeoverAfterMs: number;
  /** Size of a stored slice of the archive (default CHUNK_BYTES; the takeover test cuts small ones). */
  sliceBytes?: number;
}

export const DEFAULT_FAMILY_EXPORT_WORKER: FamilyExportWorkerOptions = { pollMs: 5_000, leaseMs: 120_000, takeoverAfterMs: DEAD_BUILDER_TAKEOVER_MS };

/**
 * Builds queued exports one at a time: the archive streams from the family's rows into 1 MiB
 * slices stored as it goes, so memory stays flat. A build whose worker died (its build lock gone
 * with its connection) is claimed again and starts over; one older than two hours fails (Sure's
 * FamilyExport.clean).
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
    }, options.sliceBytes);
    // Held until the build's transaction ends: while it is, no other worker takes the export over.
    // A worker slow to get there may have been taken over meanwhile: it stops before reading anything.
    const beforeReading = async (tx: FinanceTx) => {
      if (!(await takeBuildLock(tx, claim.id)) || !(await exports.stillClaimed(claim))) throw new ExportTakenOver();
    };
    try {
      const result = await writeFamilyExport(db, claim.familyId, sink, { beforeReading });
      if (await exports.complete(held, result.bytes, result.rows))
        log.info({ exportId: claim.id, bytes: result.bytes, rows: result.rows }, "family export completed");
      else log.warn({ exportId: claim.id }, "family export built, but taken over by another worker before it completed");
    } catch (err) {
      // Another worker has it now: its outcome is the export's, not this one's failure.
      if (err instanceof ExportTakenOver) {
        log.warn({ exportId: claim.id }, "family export taken over by another worker; this build stops");
        return;
      }
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
      const claim = await exports.claim(options.leaseMs, options.takeoverAfterMs);
      if (!claim) return false;
      await build(claim);
      return true;
    },
  });
  return loop;
}
export type FamilyExportWorker = ReturnType<typeof createFamilyExportWorker>;
