import type { FinanceDb } from "../db";
import { todayIso } from "../ledger/dates";
import { markStaleInactive, removeOrphans } from "./recurring-cleaner-queries";
import { identifyPatterns, updateManualVariance } from "./recurring-identifier-queries";
import { beginFamilyScan } from "./recurring-scan-queries";

export interface RecurringScanResult {
  patterns: number;
  written: number;
  manualUpdated: number;
  inactivated: number;
  removed: number;
}

/** A family's detection must finish well inside this (a family of a million transactions takes a few seconds). */
const SCAN_TIMEOUT_MS = 120_000;

/**
 * One detection of a family's recurring transactions, in one transaction: rows of deleted
 * accounts and merchants go, patterns are identified (Sure's Identifier, manual rows' variance
 * included), then stale rows become inactive (Sure's Cleaner). The advisory lock keeps two
 * instances from scanning one family at once (a lease can run out under a slow scan).
 * `today` is the ledger's day (UTC); tests pass their own.
 */
export async function runRecurringScan(db: FinanceDb, familyId: string, today: string = todayIso()): Promise<RecurringScanResult> {
  return db.$transaction(
    async (tx) => {
      await beginFamilyScan(tx, familyId);
      const removed = await removeOrphans(tx, familyId);
      const { patterns, written } = await identifyPatterns(tx, familyId, today);
      const manualUpdated = await updateManualVariance(tx, familyId, today);
      const inactivated = await markStaleInactive(tx, familyId, today);
      return { patterns, written, manualUpdated, inactivated, removed };
    },
    { timeout: SCAN_TIMEOUT_MS, maxWait: 10_000 },
  );
}
