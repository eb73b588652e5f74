import { observeJob, type Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createRecurringHandlers } from "./recurring-handlers";
import { createRecurringRepository } from "./recurring-repository";
import { runRecurringScan } from "./recurring-scan";
import { createRecurringScanQueue } from "./recurring-scan-queue";
import { createRecurringScanWorker, type RecurringScanOptions } from "./recurring-scan-worker";

export type { RecurringScanOptions } from "./recurring-scan-worker";

/**
 * Recurring transactions as app.ts wires them: the API's handlers and the background worker
 * that detects them after syncs (timed as background_job_duration_seconds{job="recurring_scan"}).
 */
export function createRecurringModule(db: FinanceDb, log: Logger, options?: Partial<RecurringScanOptions>) {
  const worker = createRecurringScanWorker({
    queue: createRecurringScanQueue(db),
    scan: (familyId) => observeJob("recurring_scan", () => runRecurringScan(db, familyId)),
    log,
    ...(options ? { options } : {}),
  });
  return { handlers: createRecurringHandlers(createRecurringRepository(db)), worker };
}
