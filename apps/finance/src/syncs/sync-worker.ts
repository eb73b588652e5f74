import type { Logger } from "@hearth/service-kit";
import type { AccountRepository } from "../accounts/account-repository";
import { MissingExchangeRate } from "../exchange-rates/rate-book";
import { addDays, todayIso } from "../ledger/dates";
import { MATCH_WINDOW_DAYS, type TransferMatcher } from "../transfers/transfer-matcher";
import { createPollingLoop } from "@hearth/service-kit";
import type { ClaimedSync, SyncOutcome, SyncQueueQueries } from "./sync-queue-queries";
import type { SyncSignal } from "./sync-signal";

export interface SyncWorkerOptions {
  queue: SyncQueueQueries;
  /** Where accounts to sync come from, and where those scheduled for deletion are removed. */
  accounts: Pick<AccountRepository, "liveIds" | "removeOneScheduled">;
  /** Recomputes an account's daily balances from `windowStart` (null: its whole history); `to` is the last day done. */
  materialize(accountId: string, windowStart: string | null): Promise<{ to: string | null }>;
  matcher: TransferMatcher;
  log: Logger;
  /** How often to look for work when nobody pokes (other instances' changes, restarts). */
  pollMs?: number;
  /** How often to look for families whose daily sync is due (also right at start). */
  dailySyncCheckMs?: number;
  lease?: Partial<SyncLeaseOptions>;
  /** Called after each run ends, done or failed (recurring detection asks for a debounced scan of the family); must not throw. */
  afterRun?(familyId: string): Promise<void>;
}

/** How claims are held: a run is re-queued by any instance within `ms + recoverEveryMs` of its worker stopping. */
export interface SyncLeaseOptions {
  /** How long a claim holds without renewal. */
  ms: number;
  /** How often a running claim is renewed (well under `ms`, so a slow query does not lose it). */
  renewEveryMs: number;
  /** How often this instance looks for claims whose lease ran out. */
  recoverEveryMs: number;
}

export const DEFAULT_SYNC_LEASE: SyncLeaseOptions = { ms: 30_000, renewEveryMs: 10_000, recoverEveryMs: 10_000 };

/** The hold on a claimed run; `lost` turns true once another instance re-queued it. */
interface Lease {
  lost: boolean;
}

/** What a failed sync shows: our own messages are safe to show, anything else is summarised. */
function publicMessageOf(err: unknown): string {
  if (err instanceof MissingExchangeRate) return err.message;
  return "Balance calculation failed";
}

/**
 * The finance service's background worker: runs pending syncs (balance recomputation and
 * transfer matching) and removes accounts scheduled for deletion. Requests never wait for it;
 * they queue work in their own transaction and poke it. Several instances share the queue
 * (claims use SKIP LOCKED); a claim is a lease the worker renews while it runs, and every
 * instance re-queues runs whose lease ran out (their instance died), so no run is lost to a restart.
 */
export function createSyncWorker({
  queue,
  accounts,
  materialize,
  matcher,
  log,
  pollMs = 250,
  dailySyncCheckMs = 10 * 60_000,
  lease: leaseOptions,
  afterRun,
}: SyncWorkerOptions): SyncSignal & { start(): Promise<void>; stop(): Promise<void>; drain(): Promise<void> } {
  const lease = { ...DEFAULT_SYNC_LEASE, ...leaseOptions };
  let recoveryTimer: NodeJS.Timeout | undefined;
  let recovery: Promise<void> | null = null;
  let dailyTimer: NodeJS.Timeout | undefined;
  let daily: Promise<void> | null = null;

  function poke() {
    loop.poke();
  }

  /** Runs `work` while renewing the claim's lease; stops renewing once the run is no longer ours. */
  async function holding(sync: ClaimedSync, work: (held: Lease) => Promise<void>): Promise<void> {
    const held: Lease = { lost: false };
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const renew = async () => {
      try {
        if (!(await queue.renew(sync.id, lease.ms)) && !done) {
          held.lost = true;
          log.warn({ sync_id: sync.id }, "sync lease lost: another instance re-queued this run");
        }
      } catch (err) {
        log.warn({ err, sync_id: sync.id }, "sync lease renewal failed");
      }
      if (!done && !held.lost) timer = setTimeout(() => void renew(), lease.renewEveryMs);
    };
    timer = setTimeout(() => void renew(), lease.renewEveryMs);
    try {
      await work(held);
    } finally {
      done = true;
      clearTimeout(timer);
    }
  }

  /** Records the outcome; a run re-queued meanwhile keeps the re-run's result instead. */
  async function finish(id: string, outcome: SyncOutcome): Promise<void> {
    if (!(await queue.finish(id, outcome))) log.warn({ sync_id: id }, "sync finished after its lease was lost; the re-queued run stands");
  }

  async function syncAccount(familyId: string, accountId: string, windowStart: string | null) {
    const result = await materialize(accountId, windowStart);
    await matcher.match(familyId, { accountId, since: windowStart ? addDays(windowStart, -MATCH_WINDOW_DAYS) : null });
    return result;
  }

  async function runAccount(sync: ClaimedSync): Promise<void> {
    try {
      const result = await syncAccount(sync.familyId, sync.syncableId, sync.windowStart);
      await finish(sync.id, { windowEnd: result.to });
    } catch (err) {
      log.warn({ err, sync_id: sync.id }, "account sync failed");
      await finish(sync.id, { error: publicMessageOf(err) });
    }
  }

  /** Every account in full as a child sync, then matching across the family; stops early once the lease is lost (the re-run does it all). */
  async function runFamily(sync: ClaimedSync, held: Lease): Promise<void> {
    const accountIds = await accounts.liveIds(sync.familyId);
    let failures = 0;
    for (const accountId of accountIds) {
      if (held.lost) return;
      const child = await queue.startChild(sync, accountId);
      try {
        const result = await materialize(accountId, null);
        await finish(child.id, { windowEnd: result.to });
      } catch (err) {
        failures++;
        log.warn({ err, sync_id: child.id }, "account sync failed");
        await finish(child.id, { error: publicMessageOf(err) });
      }
    }
    if (held.lost) return;
    try {
      await matcher.match(sync.familyId);
      await finish(sync.id, failures > 0 ? { error: `${failures} of ${accountIds.length} accounts failed to sync` } : {});
    } catch (err) {
      log.warn({ err, sync_id: sync.id }, "family sync failed");
      await finish(sync.id, { error: publicMessageOf(err) });
    }
  }

  async function run(sync: ClaimedSync): Promise<void> {
    await holding(sync, (held) => (sync.syncableType === "Account" ? runAccount(sync) : runFamily(sync, held)));
    await afterRun?.(sync.familyId);
  }

  /** Re-queues runs abandoned by stopped instances (any instance does it, on a timer of its own). */
  async function recover(): Promise<void> {
    try {
      const requeued = await queue.requeueExpired();
      if (requeued > 0) {
        log.warn({ requeued }, "re-queued syncs whose lease ran out");
        poke();
      }
    } catch (err) {
      log.error({ err }, "sync recovery failed");
    }
  }

  function scheduleRecovery() {
    recoveryTimer = setTimeout(() => {
      recovery = recover().finally(() => {
        recovery = null;
        if (loop.running) scheduleRecovery();
      });
    }, lease.recoverEveryMs);
  }

  /**
   * Queues the daily family syncs that are due, so rows reach the new day and dated entries and
   * carried prices take effect even when nobody writes (Sure syncs every family daily as well).
   */
  async function queueDaily(): Promise<void> {
    try {
      const queued = await queue.queueDailyFamilySyncs(todayIso());
      if (queued > 0) {
        log.info({ queued }, "queued daily family syncs");
        poke();
      }
    } catch (err) {
      log.error({ err }, "queuing the daily syncs failed");
    }
  }

  function scheduleDaily() {
    dailyTimer = setTimeout(() => {
      daily = queueDaily().finally(() => {
        daily = null;
        if (loop.running) scheduleDaily();
      });
    }, dailySyncCheckMs);
  }

  /** Does everything queued now; true when something was done. */
  async function step(): Promise<boolean> {
    const sync = await queue.claim(lease.ms);
    if (sync) {
      await run(sync);
      return true;
    }
    return accounts.removeOneScheduled();
  }

  const loop = createPollingLoop({ step, pollMs, log, name: "sync worker" });

  return {
    poke,
    async start() {
      await recover();
      await queueDaily();
      loop.start();
      scheduleRecovery();
      scheduleDaily();
    },
    async stop() {
      clearTimeout(recoveryTimer);
      clearTimeout(dailyTimer);
      await Promise.all([loop.stop(), recovery, daily]);
    },
    drain: loop.drain,
  };
}
export type SyncWorker = ReturnType<typeof createSyncWorker>;
