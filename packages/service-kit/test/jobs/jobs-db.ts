import pg from "pg";
import pino from "pino";
import { z } from "zod";
import { ensureDatabase } from "../../src/migrations/ensure-database";
import { createJobRunner, type JobDb, type JobDefinition, type JobRunnerOptions, type JobSql } from "../../src/jobs";
import { freshDatabaseUrl } from "../migrations/helpers";

// The tables the services' migrations create (the runner is written against them).
const JOBS_DDL = `
  CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');
  CREATE TABLE jobs (
    id UUID NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
    queue TEXT NOT NULL,
    family_id UUID NOT NULL,
    subject_id UUID,
    dedupe_key TEXT,
    payload JSONB NOT NULL DEFAULT '{}',
    status "JobStatus" NOT NULL DEFAULT 'queued',
    run_after TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_token UUID,
    heartbeat_at TIMESTAMPTZ(3),
    started_at TIMESTAMPTZ(3),
    finished_at TIMESTAMPTZ(3),
    last_error TEXT,
    cancel_requested_at TIMESTAMPTZ(3),
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP);
  CREATE UNIQUE INDEX jobs_queue_dedupe_key_key ON jobs (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL;
  CREATE INDEX jobs_queue_status_run_after_idx ON jobs (queue, status, run_after);
  CREATE INDEX jobs_queue_family_id_status_idx ON jobs (queue, family_id, status);
  CREATE TABLE job_family_turns (
    queue TEXT NOT NULL,
    family_id UUID NOT NULL,
    last_claimed_at TIMESTAMPTZ(3) NOT NULL,
    PRIMARY KEY (queue, family_id));
  CREATE TABLE work_done (job_id UUID NOT NULL, family_id UUID NOT NULL, attempt INTEGER NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp());`;

/** Tagged-template SQL over pg, as Prisma's $executeRaw and $queryRaw take it. */
function sqlOver(run: (text: string, values: unknown[]) => Promise<pg.QueryResult>): JobSql {
  const text = (strings: TemplateStringsArray) => strings.reduce((sql, part, i) => `${sql}${i > 0 ? `$${i}` : ""}${part}`, "");
  return {
    $executeRaw: async (strings, ...values) => (await run(text(strings), values)).rowCount ?? 0,
    $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) => (await run(text(strings), values)).rows as T,
  };
}

/** A JobDb over a pg pool: what a service's Prisma client is to the runner. */
export function pgJobDb(pool: pg.Pool): JobDb<JobSql> & JobSql {
  return {
    ...sqlOver((text, values) => pool.query(text, values)),
    async $transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(sqlOver((text, values) => client.query(text, values)));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

export interface JobsDatabase {
  url: string;
  pool: pg.Pool;
  db: JobDb<JobSql> & JobSql;
}

/** A fresh database with the jobs tables, and `work_done` where test jobs record their runs. */
export async function jobsDatabase(): Promise<JobsDatabase> {
  const url = freshDatabaseUrl();
  await ensureDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  pool.on("error", () => {});
  await pool.query(JOBS_DDL);
  return { url, pool, db: pgJobDb(pool) };
}

export const FAMILY_A = "00000000-0000-4000-8000-00000000000a";
export const FAMILY_B = "00000000-0000-4000-8000-00000000000b";
export const FAMILY_C = "00000000-0000-4000-8000-00000000000c";

export const EmptyPayload = z.object({}).passthrough();

/** A runner of these queues on the test database, quiet, polling fast. */
export function runnerOf(
  database: JobsDatabase,
  definitions: JobDefinition<Record<string, unknown>, JobSql>[],
  heartbeatMs = 100,
  more: Partial<JobRunnerOptions<JobSql>> = {},
) {
  return createJobRunner({ databaseUrl: database.url, db: database.db, log: pino({ level: "silent" }), definitions, pollMs: 50, heartbeatMs, ...more });
}

/** A job records its run in the transaction that completes it. */
export async function recordRun(tx: JobSql, job: { id: string; familyId: string; attempt: number }): Promise<void> {
  await tx.$executeRaw`INSERT INTO work_done (job_id, family_id, attempt) VALUES (${job.id}::uuid, ${job.familyId}::uuid, ${job.attempt})`;
}

export const until = async (check: () => Promise<boolean>, timeoutMs = 10_000, what = "condition"): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
