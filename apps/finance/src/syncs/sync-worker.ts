import type { Logger } from "@hearth/service-kit";
import type { AccountRepository } from "../accounts/account-repository";
import { MissingExchangeRate } from "../exchange-rates/rate-book";
import { addDays } from "../ledger/dates";
import { MATCH_WINDOW_DAYS, type TransferMatcher } from "../transfers/transfer-matcher";
import type { ClaimedSync, SyncQueueQueries } from "./sync-queue-queries";
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
 * (claims use SKIP LOCKED).
 */
export function createSyncWorker({
  queue,
  accounts,
  materialize,
  matcher,
  log,
  pollMs = 250,
}: SyncWorkerOptions): SyncSignal & { start(): Promise<void>; stop(): Promise<void>; drain(): Promise<void> } {
  let running = false;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;
  let poked = false;

  async function syncAccount(familyId: string, accountId: string, windowStart: string | null) {
    const result = await materialize(accountId, windowStart);
    await matcher.match(familyId, { accountId, since: windowStart ? addDays(windowStart, -MATCH_WINDOW_DAYS) : null });
    return result;
  }

  async function run(sync: ClaimedSync): Promise<void> {
    if (sync.syncableType === "Account") {
      try {
        const result = await syncAccount(sync.familyId, sync.syncableId, sync.windowStart);
        await queue.finish(sync.id, { windowEnd: result.to });
      } catch (err) {
        log.warn({ err, sync_id: sync.id }, "account sync failed");
        await queue.finish(sync.id, { error: publicMessageOf(err) });
      }
      return;
    }
    // A family sync: every account in full as a child sync, then matching across the family.
    const accountIds = await accounts.liveIds(sync.familyId);
    let failures = 0;
    for (const accountId of accountIds) {
      const child = await queue.startChild(sync, accountId);
      try {
        const result = await materialize(accountId, null);
        await queue.finish(child.id, { windowEnd: result.to });
      } catch (err) {
        failures++;
        log.warn({ err, sync_id: child.id }, "account sync failed");
        await queue.finish(child.id, { error: publicMessageOf(err) });
      }
    }
    try {
      await matcher.match(sync.familyId);
      await queue.finish(sync.id, failures > 0 ? { error: `${failures} of ${accountIds.length} accounts failed to sync` } : {});
    } catch (err) {
      log.warn({ err, sync_id: sync.id }, "family sync failed");
      await queue.finish(sync.id, { error: publicMessageOf(err) });
    }
  }

  /** Does everything queued now; true when something was done. */
  async function step(): Promise<boolean> {
    const sync = await queue.claim();
    if (sync) {
      await run(sync);
      return true;
    }
    return accounts.removeOneScheduled();
  }

  async function drain(): Promise<void> {
    while (await step()) {
      /* keep going until the queue is empty */
    }
  }

  async function runLoop(): Promise<void> {
    while (running) {
      poked = false;
      try {
        await drain();
      } catch (err) {
        log.error({ err }, "sync worker step failed");
      }
      if (!running || poked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  }

  return {
    poke() {
      poked = true;
      wake?.();
    },
    async start() {
      await queue.requeueStale();
      running = true;
      loop = runLoop();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
    drain,
  };
}
export type SyncWorker = ReturnType<typeof createSyncWorker>;
