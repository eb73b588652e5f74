import { scrapedGauge, sharedRead, type Sample } from "@hearth/service-kit";
import type { FinanceDb } from "../db";

/** Counting stops here (a queue that long is an incident either way), so a scrape stays cheap. */
const COUNT_CAP = 100_000;

interface QueueRow {
  status: string;
  runs: number;
  oldest_age: number;
}

let read: (() => Promise<QueueRow[]>) | null = null;

/**
 * The balance sync queue at scrape time, in one query over the (status, syncable_id) index:
 * top-level runs waiting (`pending`) and running (`syncing`), and how long the oldest of each has
 * been there (queued for pending runs, since its claim for running ones: a stuck run shows).
 */
function readQueue(db: FinanceDb): Promise<QueueRow[]> {
  return db.$queryRaw<QueueRow[]>`
    SELECT status::text AS status, count(*)::int AS runs,
           coalesce(extract(epoch FROM now() - min(CASE WHEN status = 'pending' THEN created_at ELSE syncing_at END)), 0)::float8 AS oldest_age
      FROM (SELECT status, created_at, syncing_at FROM syncs
             WHERE status IN ('pending', 'syncing') AND parent_id IS NULL LIMIT ${COUNT_CAP}) AS queued
     GROUP BY status`;
}

function samplesOf(rows: QueueRow[], value: (row: QueueRow) => number): Sample<"status">[] {
  // Both statuses always appear: an empty queue reads 0, not "no data".
  return ["pending", "syncing"].map((status) => {
    const row = rows.find((candidate) => candidate.status === status);
    return { labels: { status }, value: row ? value(row) : 0 };
  });
}

scrapedGauge({
  name: "finance_sync_queue_depth",
  help: `Balance sync runs (top-level) waiting (pending) or running (syncing), counted up to ${COUNT_CAP}`,
  labelNames: ["status"] as const,
  collect: async () => (read ? samplesOf(await read(), (row) => row.runs) : []),
});

scrapedGauge({
  name: "finance_sync_queue_oldest_age_seconds",
  help: "Seconds the oldest pending run has waited since it was queued, and the oldest running run since it was claimed; 0 when none",
  labelNames: ["status"] as const,
  collect: async () => (read ? samplesOf(await read(), (row) => row.oldest_age) : []),
});

/** Reports the sync queue of `db` (the last finance service created in this process: one, outside tests). */
export function registerSyncQueueMetrics(db: FinanceDb): void {
  read = sharedRead(() => readQueue(db));
}
