import type { Logger } from "@hearth/service-kit";
import type { JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { hasOpenSyncs, RECURRING_SCAN_QUEUE } from "./recurring-scan-queries";

export interface RecurringScanOptions {
  /** How long after a family's last sync its detection runs: several syncs in a row make one scan (Sure: 30 s). */
  debounceMs: number;
  /** How long a failed scan waits before it is tried again. */
  retryAfterMs: number;
}

export const DEFAULT_RECURRING_SCAN: RecurringScanOptions = { debounceMs: 30_000, retryAfterMs: 60_000 };

/**
 * Recurring detection on the job runner: one scan of a family at a time, families in turns. A
 * family with a sync still open is skipped, as Sure's job skips a family with incomplete syncs:
 * each sync asks for a scan when it ends, so the last one's request brings it. A failed scan is
 * tried again after `retryAfterMs`; a scan is idempotent (and holds the family's advisory lock),
 * so one run twice after a takeover does no harm.
 */
export function recurringScanJob(
  db: FinanceDb,
  scan: (familyId: string) => Promise<unknown>,
  log: Logger,
  options: RecurringScanOptions = DEFAULT_RECURRING_SCAN,
): JobDefinition<object, FinanceTx> {
  return {
    queue: RECURRING_SCAN_QUEUE,
    payload: z.object({}),
    maxAttempts: 5,
    backoffMs: () => options.retryAfterMs,
    async run(job) {
      if (await hasOpenSyncs(db, job.familyId)) {
        log.debug({ family_id: job.familyId }, "recurring scan skipped: the family has syncs open; the last one asks again");
        return;
      }
      await scan(job.familyId);
    },
  };
}
