import type { FinanceDb } from "../db";
import { definitionOf, RULE_INCLUDE } from "./rule-definition";
import { inLanes } from "./in-lanes";
import { applyRule, chunkBoundaries, type EntryRange } from "./rule-engine";

/** A pending run a worker took. */
export interface ClaimedRuleRun {
  id: string;
  familyId: string;
  ruleId: string;
  ignoreAttributeLocks: boolean;
}

/** How long one run may take before its transaction is given up (and the run marked failed). */
export const RULE_RUN_TIMEOUT_MS = 10 * 60_000;

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

/**
 * The worker's side of rule_runs: pending runs are the queue (they survive restarts). A claim is
 * a lease: `lease_expires_at` keeps other workers off the run until the claimer has opened its
 * holding transaction, which then keeps a lock on the run's row until the run ends, so a slow run
 * is never taken twice. A claimer that dies lets go of the lock with its connection; once the
 * lease has run out too, the next claim takes the run again.
 */
export function createRuleRunQueue(db: FinanceDb, chunking: RuleRunChunking = DEFAULT_RULE_RUN_CHUNKING) {
  return {
    /** The oldest pending run that nobody holds (SKIP LOCKED: several instances share the queue). */
    async claim(leaseMs: number): Promise<ClaimedRuleRun | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; rule_id: string; ignore_attribute_locks: boolean }[]>`
        UPDATE rule_runs SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
         WHERE id = (SELECT id FROM rule_runs
                      WHERE status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at < now())
                      ORDER BY executed_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, family_id, rule_id, ignore_attribute_locks`;
      if (!row) return null;
      return { id: row.id, familyId: row.family_id, ruleId: row.rule_id, ignoreAttributeLocks: row.ignore_attribute_locks };
    },

    /**
     * Applies the run's rule chunk by chunk (see RuleRunChunking). Each chunk commits its changes
     * with its counts added to the run's, so the run's row always says what is done: a run that
     * fails keeps the chunks done before (processed says how many entries), and a run taken again
     * after its worker died counts processed afresh while what the first attempt modified stays
     * counted (those entries are not changed twice). Rules that add transfers run as one chunk:
     * the entries they add must not fall into a later chunk. False when the run was finished meanwhile.
     */
    async execute(run: ClaimedRuleRun, timeoutMs = RULE_RUN_TIMEOUT_MS): Promise<boolean> {
      return db.$transaction(
        async (hold) => {
          // KEY SHARE keeps claims (FOR UPDATE SKIP LOCKED) off the run, yet lets the chunks'
          // transactions update its counts (an update of non-key columns needs only NO KEY UPDATE).
          const [held] = await hold.$queryRaw<{ id: string }[]>`SELECT id FROM rule_runs WHERE id = ${run.id}::uuid AND status = 'pending' FOR KEY SHARE`;
          if (!held) return false;
          // The rule's runs are deleted with it, so a run still here has its rule.
          const rule = definitionOf(await hold.rule.findFirstOrThrow({ where: { id: run.ruleId, familyId: run.familyId }, include: RULE_INCLUDE }));
          const options = { ignoreLocks: run.ignoreAttributeLocks };
          const addsEntries = rule.actions.some((action) => action.actionType === "set_as_transfer_or_payment");
          const cut = addsEntries ? { chunkRows: Number.MAX_SAFE_INTEGER, lanes: 1 } : chunking;
          const { matched, ends } = await chunkBoundaries(hold, rule, options, cut);
          await db.$executeRaw`
            UPDATE rule_runs SET transactions_queued = ${matched}, transactions_processed = 0, pending_jobs_count = ${ends.length}, updated_at = now()
             WHERE id = ${run.id}::uuid`;
          const chunks: EntryRange[] = ends.map((upTo, index) => ({ after: index === 0 ? null : ends[index - 1]!, upTo }));
          await inLanes(chunks, cut.lanes, (range) =>
            db.$transaction(
              async (tx) => {
                const done = await applyRule(tx, rule, { ...options, range });
                const counted = await tx.$executeRaw`
                  UPDATE rule_runs SET transactions_processed = transactions_processed + ${done.matched},
                         transactions_modified = transactions_modified + ${done.modified},
                         pending_jobs_count = GREATEST(pending_jobs_count - 1, 0), updated_at = now()
                   WHERE id = ${run.id}::uuid AND status = 'pending'`;
                // Only if this worker lost its hold (its connection dropped) and another ended the run: nothing more of it.
                if (counted === 0) throw new Error(`rule run ${run.id} ended while a chunk of it was applied`);
              },
              { timeout: timeoutMs, maxWait: 30_000 },
            ),
          );
          await hold.ruleRun.update({
            where: { id: run.id },
            data: { status: "success", pendingJobsCount: 0, leaseExpiresAt: null, errorMessage: null },
          });
          return true;
        },
        { timeout: timeoutMs, maxWait: 30_000 },
      );
    },

    /** Records why a run failed; nothing when it was finished meanwhile. */
    async fail(id: string, message: string): Promise<void> {
      await db.ruleRun.updateMany({ where: { id, status: "pending" }, data: { status: "failed", errorMessage: message, leaseExpiresAt: null } });
    },
  };
}
export type RuleRunQueue = ReturnType<typeof createRuleRunQueue>;
