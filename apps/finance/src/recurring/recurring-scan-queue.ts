import type { FinanceDb, FinanceTx } from "../db";

/** A family's scan taken off the queue: `runAfter` says which request it answers, `lease` is the hold's token. */
export interface ClaimedScan {
  familyId: string;
  runAfter: Date;
  lease: Date;
}

/**
 * The debounce queue of recurring detection (table recurring_scans, one row per family). A
 * request sets the row's run_after to now + the debounce, so several syncs in a row make one
 * scan, run after the last of them (Sure's IdentifyRecurringTransactionsJob waits 30 s the same
 * way). run_after only ever grows, so it also tells whether a request came in while a scan ran.
 * A claim is a lease on the database clock: a scan whose worker died is claimed again once the
 * lease runs out, and the late worker can no longer finish it.
 */
export function createRecurringScanQueue(db: FinanceDb) {
  return {
    /** Asks for a scan of the family no earlier than `debounceMs` from now (pushing back a waiting one). */
    async request(familyId: string, debounceMs: number, tx: FinanceDb | FinanceTx = db): Promise<void> {
      // The extra millisecond keeps run_after rising even when two requests share a clock tick.
      // Truncated, not rounded: run_after is timestamp(3), and now() rounded up would not be due yet.
      await tx.$executeRaw`
        INSERT INTO recurring_scans (family_id, run_after, created_at, updated_at)
        VALUES (${familyId}::uuid, date_trunc('milliseconds', now()) + ${debounceMs} * interval '1 millisecond', now(), now())
        ON CONFLICT (family_id) DO UPDATE
           SET run_after = GREATEST(EXCLUDED.run_after, recurring_scans.run_after + interval '1 millisecond'), updated_at = now()`;
    },

    /**
     * The longest-due scan nobody holds, under a lease of `leaseMs`; several instances share the
     * queue (SKIP LOCKED). A family with syncs still open waits: its last sync asks again
     * (Sure's job skips a family with incomplete syncs the same way).
     */
    async claim(leaseMs: number): Promise<ClaimedScan | null> {
      const [row] = await db.$queryRaw<{ family_id: string; run_after: Date; lease_expires_at: Date }[]>`
        UPDATE recurring_scans s SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
         WHERE s.family_id = (
           SELECT c.family_id FROM recurring_scans c
            WHERE c.run_after <= now() AND (c.lease_expires_at IS NULL OR c.lease_expires_at < now())
              AND NOT EXISTS (SELECT 1 FROM syncs y WHERE y.family_id = c.family_id AND y.status IN ('pending', 'syncing'))
            ORDER BY c.run_after LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING s.family_id, s.run_after, s.lease_expires_at`;
      return row ? { familyId: row.family_id, runAfter: row.run_after, lease: row.lease_expires_at } : null;
    },

    /** Extends the hold; the new token, or null when the scan is no longer this worker's. */
    async renew(scan: ClaimedScan, leaseMs: number): Promise<Date | null> {
      const [row] = await db.$queryRaw<{ lease_expires_at: Date }[]>`
        UPDATE recurring_scans SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
         WHERE family_id = ${scan.familyId}::uuid AND lease_expires_at = ${scan.lease}
        RETURNING lease_expires_at`;
      return row?.lease_expires_at ?? null;
    },

    /**
     * A finished scan leaves the queue, unless a request came in while it ran: then the row
     * stays, released, for the scan that request asked for. Nothing changes once the lease was lost.
     */
    async finish(scan: ClaimedScan): Promise<void> {
      const deleted = await db.$executeRaw`
        DELETE FROM recurring_scans WHERE family_id = ${scan.familyId}::uuid AND run_after = ${scan.runAfter} AND lease_expires_at = ${scan.lease}`;
      if (deleted === 0) await this.release(scan);
    },

    /** Gives up the hold; the scan runs again no earlier than `retryAfterMs` from now (0: when due). */
    async release(scan: ClaimedScan, retryAfterMs = 0): Promise<void> {
      await db.$executeRaw`
        UPDATE recurring_scans SET lease_expires_at = NULL, run_after = GREATEST(run_after, now() + ${retryAfterMs} * interval '1 millisecond'), updated_at = now()
         WHERE family_id = ${scan.familyId}::uuid AND lease_expires_at = ${scan.lease}`;
    },
  };
}
export type RecurringScanQueue = ReturnType<typeof createRecurringScanQueue>;
