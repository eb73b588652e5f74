import { enqueueJob } from "@hearth/service-kit/jobs";
import type { FinanceDb, FinanceTx } from "../db";
import { RULE_INCLUDE } from "./rule-definition";

/** Manual rule runs: one job per run (docs/background-jobs.md). */
export const RULE_RUN_QUEUE = "finance.rule-run";

/** Queues the run's job in the transaction that created the run. */
export const queueRuleRun = (tx: FinanceTx, familyId: string, runId: string) =>
  enqueueJob(tx, { queue: RULE_RUN_QUEUE, familyId, subjectId: runId, dedupeKey: runId });

/**
 * Queues a job for every pending run without one (queued by an instance from before the job
 * runner, during a deploy, or restored from a backup): how many.
 */
export function queueOrphanedRuleRuns(db: FinanceDb): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key, run_after)
    SELECT ${RULE_RUN_QUEUE}, r.family_id, r.id, r.id::text, r.executed_at FROM rule_runs r
     WHERE r.status = 'pending'
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${RULE_RUN_QUEUE} AND j.subject_id = r.id AND j.status IN ('queued', 'running'))
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}

/** A run's progress as its job writes it: each write in the job's fenced transaction. */
export function createRuleRunProgressQueries(db: FinanceDb) {
  return {
    /** The run with its rule, while it waits to be applied (a rule's runs are deleted with it). */
    pending: (familyId: string, runId: string) =>
      db.ruleRun.findFirst({ where: { id: runId, familyId, status: "pending" }, select: { ignoreAttributeLocks: true, rule: { include: RULE_INCLUDE } } }),

    /** What this attempt will do: processed counts afresh, modified keeps an earlier attempt's count. */
    async start(tx: FinanceTx, runId: string, matched: number, chunks: number): Promise<void> {
      await tx.$executeRaw`
        UPDATE rule_runs SET transactions_queued = ${matched}, transactions_processed = 0, pending_jobs_count = ${chunks}, updated_at = now()
         WHERE id = ${runId}::uuid AND status = 'pending'`;
    },

    /** Adds a chunk's counts; false when the run is gone (deleted with its rule) or ended. */
    async countChunk(tx: FinanceTx, runId: string, done: { matched: number; modified: number }): Promise<boolean> {
      const counted = await tx.$executeRaw`
        UPDATE rule_runs SET transactions_processed = transactions_processed + ${done.matched},
               transactions_modified = transactions_modified + ${done.modified},
               pending_jobs_count = GREATEST(pending_jobs_count - 1, 0), updated_at = now()
         WHERE id = ${runId}::uuid AND status = 'pending'`;
      return counted > 0;
    },

    async succeed(tx: FinanceTx, runId: string): Promise<void> {
      await tx.$executeRaw`
        UPDATE rule_runs SET status = 'success', pending_jobs_count = 0, error_message = NULL, updated_at = now()
         WHERE id = ${runId}::uuid AND status = 'pending'`;
    },

    async fail(tx: FinanceTx, runId: string, message: string): Promise<void> {
      await tx.$executeRaw`
        UPDATE rule_runs SET status = 'failed', error_message = ${message}, pending_jobs_count = 0, updated_at = now()
         WHERE id = ${runId}::uuid AND status = 'pending'`;
    },
  };
}
export type RuleRunProgressQueries = ReturnType<typeof createRuleRunProgressQueries>;
