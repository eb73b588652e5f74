import type { Logger } from "@hearth/service-kit";
import { type JobDefinition, type RunningJob } from "@hearth/service-kit/jobs";
import { z } from "zod";
import type { AccountRepository } from "../accounts/account-repository";
import type { FinanceTx } from "../db";
import { MissingExchangeRate } from "../exchange-rates/rate-book";
import { addDays, todayIso } from "../ledger/dates";
import { MATCH_WINDOW_DAYS, type TransferMatcher } from "../transfers/transfer-matcher";
import {
  BALANCE_SYNC_QUEUE,
  START_PENDING_SYNC_ON_CLAIM,
  startedOnClaim,
  type StartedSync,
  type SyncOutcome,
  type SyncQueueQueries,
} from "./sync-queue-queries";

export interface BalanceSyncDeps {
  queries: SyncQueueQueries;
  accounts: Pick<AccountRepository, "liveIds">;
  /** Recomputes an account's daily balances from `windowStart` (null: its whole history); `to` is the last day done. */
  materialize(accountId: string, windowStart: string | null): Promise<{ to: string | null }>;
  matcher: TransferMatcher;
  log: Logger;
  /** Called after each run ends, done or failed, and when a sync ends failed without running (recurring detection asks for a debounced scan of the family); must not throw. */
  afterRun?(familyId: string): Promise<void>;
}

/**
 * A recomputation that failed on the family's figures (a missing rate) would fail again: it is
 * written on the sync for people to see. Anything else (the database, a timeout) is rethrown
 * for the runner to retry.
 */
function figuresFailure(err: unknown): string {
  if (err instanceof MissingExchangeRate) return err.message;
  throw err;
}

type SyncJob = RunningJob<object, FinanceTx>;

/**
 * Balance syncs (recomputing daily balances, then transfer matching) on the job runner: one job
 * per sync row, queued with the change that needs it. Families take turns, so one family's
 * hundreds of syncs never hold up another's one. A worker that dies is
 * taken over at once and the run starts again from its window's first day; a worker that lost its
 * job writes no outcome. A recomputation that failed on the figures is recorded on the sync, not
 * retried (it would fail again); any other error is retried by the runner, and written on the sync
 * once its attempts are spent. The reconcile queues the daily
 * family syncs and any sync left without a job.
 */
export function balanceSyncJob(deps: BalanceSyncDeps): JobDefinition<object, FinanceTx> {
  const { queries, accounts, materialize, matcher, log, afterRun } = deps;

  /** The run's outcome and the job's end, in one statement. */
  const finish = (job: SyncJob, id: string, outcome: SyncOutcome) => queries.finishRun(job, id, outcome);

  async function runAccount(job: SyncJob, sync: StartedSync): Promise<void> {
    let outcome: SyncOutcome;
    try {
      const result = await materialize(sync.syncableId, sync.windowStart);
      await matcher.match(sync.familyId, { accountId: sync.syncableId, since: sync.windowStart ? addDays(sync.windowStart, -MATCH_WINDOW_DAYS) : null });
      outcome = { windowEnd: result.to };
    } catch (err) {
      outcome = { error: figuresFailure(err) };
      log.warn({ err, sync_id: sync.id }, "account sync failed");
    }
    await finish(job, sync.id, outcome);
  }

  /** Every account in full as a child sync, then matching across the family. */
  async function runFamily(job: SyncJob, sync: StartedSync): Promise<void> {
    const accountIds = await accounts.liveIds(sync.familyId);
    let failures = 0;
    for (const accountId of accountIds) {
      job.signal.throwIfAborted();
      const child = await job.inFence((tx) => queries.startChild(tx, sync, accountId));
      let outcome: SyncOutcome;
      try {
        outcome = { windowEnd: (await materialize(accountId, null)).to };
      } catch (err) {
        outcome = { error: figuresFailure(err) };
        failures++;
        log.warn({ err, sync_id: child.id }, "account sync failed");
      }
      await job.inFence((tx) => queries.finish(tx, child.id, outcome));
    }
    job.signal.throwIfAborted();
    let outcome: SyncOutcome;
    try {
      await matcher.match(sync.familyId);
      outcome = failures > 0 ? { error: `${failures} of ${accountIds.length} accounts failed to sync` } : {};
    } catch (err) {
      outcome = { error: figuresFailure(err) };
      log.warn({ err, sync_id: sync.id }, "family sync failed");
    }
    await finish(job, sync.id, outcome);
  }

  return {
    queue: BALANCE_SYNC_QUEUE,
    payload: z.object({}),
    // Two at once per instance and per family (a family alone uses both); when a slot frees, the
    // family with the fewest running, then the one served longest ago, goes next. Two runs of
    // one account may overlap: the materializer's account lock orders them, and each recomputes
    // to the last day, so the later one's result stands.
    concurrency: 2,
    perFamilyLimit: 2,
    // A sync that failed on the database (not on its figures: those are written on the sync) is
    // soon tried again: its balances wait for it.
    maxAttempts: 5,
    backoffMs: (attempt) => Math.min(30_000, 500 * 2 ** (attempt - 1)),
    onClaim: START_PENDING_SYNC_ON_CLAIM,
    async run(job) {
      if (!job.subjectId) return;
      // Started by the claim when it was waiting; a retried or taken-over run is started here.
      const sync = startedOnClaim(job.claimed) ?? (await queries.start(job, job.familyId, job.subjectId));
      // Ended or gone meanwhile (the family was reset): nothing to do.
      if (!sync) return;
      try {
        await (sync.syncableType === "Account" ? runAccount(job, sync) : runFamily(job, sync));
      } finally {
        await afterRun?.(sync.familyId);
      }
    },
    async failed(tx, job, reason) {
      if (!job.subjectId) return;
      await queries.fail(tx, job.subjectId, reason);
      // A scan skipped while this sync was open waits for the scan its end asks for: failed or not.
      await afterRun?.(job.familyId);
    },
    async reconcile() {
      const daily = await queries.queueDailyFamilySyncs(todayIso());
      if (daily > 0) log.info({ queued: daily }, "queued daily family syncs");
      return daily + (await queries.queueOrphaned());
    },
  };
}
