import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";

/** The job queue of recurring detection: one waiting scan per family (the family's id is its key). */
export const RECURRING_SCAN_QUEUE = "finance.recurring-scan";

/**
 * Asks for a scan of the family no earlier than `debounceMs` from now, pushing back one waiting:
 * several syncs in a row make one scan, after the last of them (Sure's
 * IdentifyRecurringTransactionsJob waits 30 s the same way). A request while a scan runs queues
 * another after it: that scan may have read the ledger before the change.
 */
export function requestRecurringScan(db: FinanceDb, familyId: string, debounceMs: number) {
  return enqueueJob(db, {
    queue: RECURRING_SCAN_QUEUE,
    familyId,
    dedupeKey: familyId,
    runAfter: new Date(Date.now() + debounceMs),
    postpone: true,
  });
}

/** Whether the family has a sync waiting or running (its scan waits for the one its last sync asks for). */
export async function hasOpenSyncs(db: FinanceDb, familyId: string): Promise<boolean> {
  const open = await db.sync.findFirst({ where: { familyId, status: { in: ["pending", "syncing"] } }, select: { id: true } });
  return open !== null;
}

/** Starts a scan's transaction: the family's advisory lock (one scan of a family at a time), and no JIT. */
export async function beginFamilyScan(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.recurring:' || ${familyId}, 0))`;
  // Compiling the plan (PostgreSQL's JIT, about 0.4 s for a family of a million transactions)
  // costs more than it saves for one run. (A larger work_mem was measured slower: it makes the
  // planner hash a million groups where sorting them, which the windows need anyway, is quicker.)
  await tx.$executeRaw`SET LOCAL jit = off`;
}
