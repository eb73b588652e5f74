import type { FinanceDb } from "../db";
import { definitionOf, RULE_INCLUDE } from "./rule-definition";
import { applyRule } from "./rule-engine";

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
 * The worker's side of rule_runs: pending runs are the queue (they survive restarts). A claim is
 * a lease: `lease_expires_at` keeps other workers off the run until the claimer has opened its
 * transaction, which then holds the run's row lock until it commits, so a slow run is never
 * taken twice. A claimer that dies lets go of the lock with its connection; once the lease has
 * run out too, the next claim takes the run again.
 */
export function createRuleRunQueue(db: FinanceDb) {
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
     * Applies the run's rule and records its counts, in one transaction: the changes and the
     * success are committed together or not at all. False when the run was finished meanwhile.
     */
    async execute(run: ClaimedRuleRun, timeoutMs = RULE_RUN_TIMEOUT_MS): Promise<boolean> {
      return db.$transaction(
        async (tx) => {
          const [held] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM rule_runs WHERE id = ${run.id}::uuid AND status = 'pending' FOR UPDATE`;
          if (!held) return false;
          // The rule's runs are deleted with it, so a run still here has its rule.
          const rule = await tx.rule.findFirstOrThrow({ where: { id: run.ruleId, familyId: run.familyId }, include: RULE_INCLUDE });
          const { matched, modified } = await applyRule(tx, definitionOf(rule), { ignoreLocks: run.ignoreAttributeLocks });
          await tx.ruleRun.update({
            where: { id: run.id },
            data: {
              status: "success",
              transactionsQueued: matched,
              transactionsProcessed: matched,
              transactionsModified: modified,
              pendingJobsCount: 0,
              leaseExpiresAt: null,
              errorMessage: null,
            },
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
