import { scrapedGauge, sharedRead, type Sample } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { syncQueueRows, type SyncQueueRow } from "./sync-metrics-queries";

/** Counting stops here (a queue that long is an incident either way), so a scrape stays cheap. */
const COUNT_CAP = 100_000;

let read: (() => Promise<SyncQueueRow[]>) | null = null;

function samplesOf(rows: SyncQueueRow[], value: (row: SyncQueueRow) => number): Sample<"status">[] {
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
  read = sharedRead(() => syncQueueRows(db, COUNT_CAP));
}
