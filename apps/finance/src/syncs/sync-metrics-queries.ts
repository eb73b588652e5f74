import type { FinanceDb } from "../db";

export interface SyncQueueRow {
  status: string;
  runs: number;
  oldest_age: number;
}

/**
 * The balance sync queue, in one query over the (status, syncable_id) index: top-level runs
 * waiting (`pending`) and running (`syncing`), counted up to `cap`, and how long the oldest of each
 * has been there (queued for pending runs, since its claim for running ones: a stuck run shows).
 */
export function syncQueueRows(db: FinanceDb, cap: number): Promise<SyncQueueRow[]> {
  return db.$queryRaw<SyncQueueRow[]>`
    SELECT status::text AS status, count(*)::int AS runs,
           coalesce(extract(epoch FROM now() - min(CASE WHEN status = 'pending' THEN created_at ELSE syncing_at END)), 0)::float8 AS oldest_age
      FROM (SELECT status, created_at, syncing_at FROM syncs
             WHERE status IN ('pending', 'syncing') AND parent_id IS NULL LIMIT ${cap}) AS queued
     GROUP BY status`;
}
