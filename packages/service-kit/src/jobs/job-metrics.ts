import type pg from "pg";
import { counter, histogram, scrapedGauge, sharedRead, type Sample } from "../metrics/registry";

/** Counting stops here (a queue that long is an incident either way), so a scrape stays cheap. */
const COUNT_CAP = 100_000;

export const jobRunsTotal = counter({
  name: "background_job_runs_total",
  help: "Job runs ended, by queue and outcome (succeeded, failed, retried, cancelled, lost, released)",
  labelNames: ["queue", "outcome"] as const,
});

export const jobRunDuration = histogram({
  name: "background_job_run_duration_seconds",
  help: "Duration of job runs, by queue and outcome",
  labelNames: ["queue", "outcome"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
});

interface QueueRow {
  queue: string;
  status: string;
  jobs: number;
  oldest_age: number;
}

/** Every job runner of this process, by queue: its queues' state at scrape time. */
const readers = new Map<object, { queues: readonly string[]; read: () => Promise<QueueRow[]> }>();

function readQueues(pool: pg.Pool, queues: readonly string[]): Promise<QueueRow[]> {
  return pool
    .query<QueueRow>(
      `SELECT queue, status::text AS status, count(*)::int AS jobs,
              coalesce(extract(epoch FROM now() - min(CASE WHEN status = 'queued' THEN run_after ELSE started_at END)), 0)::float8 AS oldest_age
         FROM (SELECT queue, status, run_after, started_at FROM jobs
                WHERE queue = ANY($1) AND status IN ('queued', 'running') AND (status = 'running' OR run_after <= now())
                LIMIT ${COUNT_CAP}) AS open
        GROUP BY queue, status`,
      [queues],
    )
    .then((result) => result.rows);
}

async function samples(value: (row: QueueRow) => number): Promise<Sample<"queue" | "status">[]> {
  const out: Sample<"queue" | "status">[] = [];
  for (const { queues, read } of readers.values()) {
    const rows = await read();
    // Every queue and status appears: an empty queue reads 0, not "no data".
    for (const queue of queues) {
      for (const status of ["queued", "running"]) {
        const row = rows.find((candidate) => candidate.queue === queue && candidate.status === status);
        out.push({ labels: { queue, status }, value: row ? value(row) : 0 });
      }
    }
  }
  return out;
}

scrapedGauge({
  name: "background_job_queue_depth",
  help: `Jobs due and waiting (queued) or running, by queue, counted up to ${COUNT_CAP}`,
  labelNames: ["queue", "status"] as const,
  collect: () => samples((row) => row.jobs),
});

scrapedGauge({
  name: "background_job_oldest_age_seconds",
  help: "Seconds the oldest due job has waited, and the oldest running job has run, by queue; 0 when none",
  labelNames: ["queue", "status"] as const,
  collect: () => samples((row) => row.oldest_age),
});

/** Reports `queues` of the jobs table `pool` reaches until the returned function is called. */
export function registerJobQueues(pool: pg.Pool, queues: readonly string[]): () => void {
  const key = {};
  readers.set(key, { queues, read: sharedRead(() => readQueues(pool, queues)) });
  return () => readers.delete(key);
}
