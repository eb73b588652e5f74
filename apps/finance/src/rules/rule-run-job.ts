import type { Logger } from "@hearth/service-kit";
import { JobFailure, JobLost, type JobDefinition } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { FinanceDb, FinanceTx } from "../db";
import { BALANCE_SYNC_QUEUE } from "../syncs/sync-queue-queries";
import { inLanes } from "./in-lanes";
import { definitionOf, RuleDefinitionError } from "./rule-definition";
import { applyRule, chunkBoundaries } from "./rule-engine-queries";
import { queueOrphanedRuleRuns, RULE_RUN_QUEUE, type RuleRunProgressQueries } from "./rule-run-progress-queries";
import type { EntryRange } from "./rule-sql";

/** How long one chunk's transaction may take before it is given up (and the run marked failed). */
export const RULE_RUN_CHUNK_TIMEOUT_MS = 10 * 60_000;

/**
 * How a run is cut: chunks of at most `chunkRows` matched entries, each applied in a transaction
 * of its own, `lanes` of them at once (each lane a connection, so a database server core). A
 * run's time is the CPU its index writes take: two lanes on this project's two-core machines
 * apply 100,000 entries in about two thirds of the time one takes. Bounded transactions also keep
 * a run from holding 100,000 rows locked against the family's own edits until its very end.
 */
export interface RuleRunChunking {
  chunkRows: number;
  lanes: number;
}
export const DEFAULT_RULE_RUN_CHUNKING: RuleRunChunking = { chunkRows: 50_000, lanes: 2 };

/** What a failed run shows: a rule that cannot run says why; anything else is summarised (the log has it). */
function publicMessageOf(err: unknown): string {
  if (err instanceof RuleDefinitionError) return err.message;
  return "An unexpected error occurred while applying the rule";
}

/**
 * Manual rule runs on the job runner: one job per run, queued with it. The run's rule is applied
 * chunk by chunk (RuleRunChunking); each chunk commits its changes with its counts added to the
 * run's, in the job's fence, so the run's row always says what is done and a worker that lost its
 * job adds nothing more. A run that fails keeps the chunks that committed (processed says how
 * many) and is not retried: it would fail the same way. A run taken over after its worker died
 * applies the rule again from the start: processed is counted afresh, while what the first
 * attempt modified stays counted (those entries are not changed twice). A run of one chunk is the
 * rule over all its matches in one transaction; so are rules that add transfers, whose new
 * entries must not fall into a later chunk. One run at a time per family, families in turns.
 */
export function ruleRunJob(
  db: FinanceDb,
  progress: RuleRunProgressQueries,
  log: Logger,
  chunking = DEFAULT_RULE_RUN_CHUNKING,
): JobDefinition<object, FinanceTx> {
  return {
    queue: RULE_RUN_QUEUE,
    payload: z.object({}),
    // A run that adds transfers queues the syncs of their accounts.
    pokes: [BALANCE_SYNC_QUEUE],
    async run(job) {
      const runId = job.subjectId;
      if (!runId) return;
      const run = await progress.pending(job.familyId, runId);
      // Deleted with its rule, or ended by an earlier worker.
      if (!run) return;
      // Each write checks the job's fence just before it commits (two lanes' chunks, and the
      // heartbeat, do not queue behind each other); a worker that lost the job has it rolled back.
      const inFence = <T>(write: (tx: FinanceTx) => Promise<T>) => job.inFence(write, { timeout: RULE_RUN_CHUNK_TIMEOUT_MS, maxWait: 30_000 });
      try {
        const rule = definitionOf(run.rule);
        const options = { ignoreLocks: run.ignoreAttributeLocks };
        const addsEntries = rule.actions.some((action) => action.actionType === "set_as_transfer_or_payment");
        const cut = addsEntries ? { chunkRows: Number.MAX_SAFE_INTEGER, lanes: 1 } : chunking;
        const { matched, ends } = await chunkBoundaries(db, rule, options, cut);
        await inFence((tx) => progress.start(tx, runId, matched, ends.length));
        const chunks: (EntryRange | undefined)[] =
          ends.length === 1 ? [undefined] : ends.map((upTo, index) => ({ after: index === 0 ? null : ends[index - 1]!, upTo }));
        await inLanes(chunks, cut.lanes, (range) =>
          inFence(async (tx) => {
            // Between two chunks: a cancel or a stopping service ends the run there.
            job.signal.throwIfAborted();
            const done = await applyRule(tx, rule, { ...options, ...(range && { range }) });
            // The run was deleted with its rule meanwhile: this chunk is undone, and the run ends.
            if (!(await progress.countChunk(tx, runId, done))) throw new JobFailure("The rule was deleted");
          }),
        );
        await db.$transaction(async (tx) => {
          await job.complete(tx);
          await progress.succeed(tx, runId);
        });
      } catch (err) {
        // Stopped by its signal: the runner ends it as the signal's reason says (released, cancelled, lost).
        if (job.signal.aborted) throw job.signal.reason;
        if (err instanceof JobLost || err instanceof JobFailure) throw err;
        log.warn({ err, rule_run_id: runId }, "rule run failed");
        throw new JobFailure(publicMessageOf(err));
      }
    },
    failed: (tx, job, reason) => (job.subjectId ? progress.fail(tx, job.subjectId, reason) : Promise.resolve()),
    reconcile: () => queueOrphanedRuleRuns(db),
  };
}
