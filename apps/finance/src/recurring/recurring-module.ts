import { observeJob, type Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createRecurringHandlers } from "./recurring-handlers";
import { createRecurringRepository } from "./recurring-repository";
import { runRecurringScan } from "./recurring-scan";
import { DEFAULT_RECURRING_SCAN, recurringScanJob, type RecurringScanOptions } from "./recurring-scan-job";
import { requestRecurringScan } from "./recurring-scan-queries";

export type { RecurringScanOptions } from "./recurring-scan-job";

/**
 * Recurring transactions as app.ts wires them: the API's handlers, the job that detects them
 * after syncs (timed as background_job_duration_seconds{job="recurring_scan"}), and what a sync
 * calls when it ends to ask for a scan (never throws into it: a sync is done either way).
 */
export function createRecurringModule(db: FinanceDb, log: Logger, overrides?: Partial<RecurringScanOptions>) {
  const options = { ...DEFAULT_RECURRING_SCAN, ...overrides };
  const job = recurringScanJob(db, (familyId) => observeJob("recurring_scan", () => runRecurringScan(db, familyId)), log, options);
  async function requestScan(familyId: string): Promise<void> {
    try {
      await requestRecurringScan(db, familyId, options.debounceMs);
    } catch (err) {
      log.warn({ err, family_id: familyId }, "requesting a recurring scan failed");
    }
  }
  return { handlers: createRecurringHandlers(createRecurringRepository(db)), job, requestScan };
}
