import type { FinanceDb, FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { definitionOf, RULE_INCLUDE } from "./rule-definition";
import { inLanes } from "./in-lanes";
import { applyRule, chunkBoundaries, type EntryRange } from "./rule-engine";

/** A pending run a worker took; `lease` is its claim's mark: a later claim writes another. */
export interface ClaimedRuleRun {
  id: string;
  familyId: string;
  ruleId: string;
  ignoreAttributeLocks: boolean;
  lease: Date;
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

const runLockSql = (runId: Prisma.Sql): Prisma.Sql => Prisma.sql`hashtextextended('hearth.finance.rule-run:' || ${runId}::text, 0)`;

/**
 * Takes the run's advisory lock for the life of `tx`, if nobody holds it: the mark of a worker
 * applying the run, which PostgreSQL drops with the worker's connection. A lock rather than a
 * row lock: deleting the rule (its runs go with it) never waits on a run, so a delete that
 * holds entries a chunk needs cannot wait on the run in turn, out of the deadlock detector's sight.
 */
export async function takeRunLock(tx: FinanceTx, runId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${runLockSql(Prisma.sql`${runId}::uuid`)}) AS taken`;
  return row?.taken === true;
}

/**
 * takeRunLock, tried for up to two seconds: another worker's claim statement may hold the lock
 * for a moment (it tries the lock of each lapsed run it reads); a live worker holds it for good.
 */
async function waitForRunLock(tx: FinanceTx, runId: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    if (await takeRunLock(tx, runId)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * The worker's side of rule_runs: pending runs are the queue (they survive restarts). A claim is
 * a lease; the worker then holds the run's lock (takeRunLock) in a transaction open for the whole
 * run. A run whose lease lapsed is taken again only when its lock is free: a dead worker's at
 * once, a live slow one's never. Every write of the run checks that its lease is still the
 * claim's, so a worker whose run was taken from it changes nothing more.
 */
export function createRuleRunQueue(db: FinanceDb, chunking: RuleRunChunking = DEFAULT_RULE_RUN_CHUNKING) {
  /** The run's row while it is still `run`'s claim. */
  const claimed = (run: ClaimedRuleRun) => Prisma.sql`id = ${run.id}::uuid AND status = 'pending' AND lease_expires_at = ${run.lease}`;

  return {
    /** The oldest pending run that nobody holds (SKIP LOCKED: several instances share the queue). */
    async claim(leaseMs: number): Promise<ClaimedRuleRun | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; rule_id: string; ignore_attribute_locks: boolean; lease_expires_at: Date }[]>`
        UPDATE rule_runs SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
         WHERE id = (SELECT r.id FROM rule_runs r
                      WHERE r.status = 'pending'
                        -- CASE: the lock is only ever tried on a run whose lease lapsed, never on one just claimed.
                        AND CASE WHEN r.lease_expires_at IS NULL THEN true
                                 WHEN r.lease_expires_at < now() THEN pg_try_advisory_xact_lock(${runLockSql(Prisma.sql`r.id`)})
                                 ELSE false END
                      ORDER BY r.executed_at, r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED)
        RETURNING id, family_id, rule_id, ignore_attribute_locks, lease_expires_at`;
      if (!row) return null;
      return { id: row.id, familyId: row.family_id, ruleId: row.rule_id, ignoreAttributeLocks: row.ignore_attribute_locks, lease: row.lease_expires_at };
    },

    /**
     * Applies the run's rule chunk by chunk (see RuleRunChunking). Each chunk commits its changes
     * with its counts added to the run's, so the run's row always says what is done: a run that
     * fails keeps the chunks that committed (processed says how many entries), and a run taken
     * again after its worker died counts processed afresh while what the first attempt modified
     * stays counted (those entries are not changed twice). A run of one chunk is the rule over all
     * its matches, as one transaction; so are rules that add transfers, whose new entries must not
     * fall into a later chunk. False when the run is not this claim's any more (finished, deleted
     * with its rule, or taken over).
     */
    async execute(run: ClaimedRuleRun, timeoutMs = RULE_RUN_TIMEOUT_MS): Promise<boolean> {
      return db.$transaction(
        async (hold) => {
          // This transaction holds the lock and nothing else: no table lock a migration could
          // queue behind (and the chunks behind it) while it waits on the chunks. It is idle meanwhile.
          await hold.$executeRawUnsafe(`SET LOCAL idle_in_transaction_session_timeout = 0`);
          if (!(await waitForRunLock(hold, run.id))) return false;
          const [held] = await db.$queryRaw<{ id: string }[]>`SELECT id FROM rule_runs WHERE ${claimed(run)}`;
          if (!held) return false;
          // The rule's runs are deleted with it: a rule gone now leaves no run to count on.
          const found = await db.rule.findFirst({ where: { id: run.ruleId, familyId: run.familyId }, include: RULE_INCLUDE });
          if (!found) return false;
          const rule = definitionOf(found);
          const options = { ignoreLocks: run.ignoreAttributeLocks };
          const addsEntries = rule.actions.some((action) => action.actionType === "set_as_transfer_or_payment");
          const cut = addsEntries ? { chunkRows: Number.MAX_SAFE_INTEGER, lanes: 1 } : chunking;
          const { matched, ends } = await chunkBoundaries(db, rule, options, cut);
          const started = await db.$executeRaw`
            UPDATE rule_runs SET transactions_queued = ${matched}, transactions_processed = 0, pending_jobs_count = ${ends.length}, updated_at = now()
             WHERE ${claimed(run)}`;
          if (started === 0) return false;
          const chunks: (EntryRange | undefined)[] =
            ends.length === 1 ? [undefined] : ends.map((upTo, index) => ({ after: index === 0 ? null : ends[index - 1]!, upTo }));
          await inLanes(chunks, cut.lanes, (range) =>
            db.$transaction(
              async (tx) => {
                const done = await applyRule(tx, rule, { ...options, ...(range && { range }) });
                const counted = await tx.$executeRaw`
                  UPDATE rule_runs SET transactions_processed = transactions_processed + ${done.matched},
                         transactions_modified = transactions_modified + ${done.modified},
                         pending_jobs_count = GREATEST(pending_jobs_count - 1, 0), updated_at = now()
                   WHERE ${claimed(run)}`;
                // The run was deleted with its rule, or taken over (this worker lost its lock): its chunk is undone.
                if (counted === 0) throw new Error(`rule run ${run.id} is no longer this worker's`);
              },
              { timeout: timeoutMs, maxWait: 30_000 },
            ),
          );
          const finished = await db.$executeRaw`
            UPDATE rule_runs SET status = 'success', pending_jobs_count = 0, lease_expires_at = NULL, error_message = NULL, updated_at = now()
             WHERE ${claimed(run)}`;
          return finished > 0;
        },
        { timeout: timeoutMs, maxWait: 30_000 },
      );
    },

    /** Records why a run failed, while it is still this claim's. */
    async fail(run: ClaimedRuleRun, message: string): Promise<void> {
      await db.$executeRaw`
        UPDATE rule_runs SET status = 'failed', error_message = ${message}, pending_jobs_count = 0, lease_expires_at = NULL, updated_at = now()
         WHERE ${claimed(run)}`;
    },
  };
}
export type RuleRunQueue = ReturnType<typeof createRuleRunQueue>;
