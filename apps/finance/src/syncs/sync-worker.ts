import type { Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { materializeBalances } from "../balances/balance-materializer";
import { MissingExchangeRate } from "../exchange-rates/rate-book";
import { addDays, dateOf, isoDateOf } from "../ledger/dates";
import { adjustTransactionCount, bumpLedgerVersion } from "../ledger/ledger-version";
import { matchTransfers, MATCH_WINDOW_DAYS } from "../transfers/transfer-matcher";
import type { SyncSignal } from "./sync-queue";

interface ClaimedSync {
  id: string;
  family_id: string;
  syncable_type: string;
  syncable_id: string;
  window_start_date: Date | null;
}

export interface SyncWorkerOptions {
  db: FinanceDb;
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
  db,
  log,
  pollMs = 250,
}: SyncWorkerOptions): SyncSignal & { start(): Promise<void>; stop(): Promise<void>; drain(): Promise<void> } {
  let running = false;
  let wake: (() => void) | null = null;
  let loop: Promise<void> | null = null;
  let poked = false;

  async function claim(): Promise<ClaimedSync | null> {
    const [row] = await db.$queryRaw<ClaimedSync[]>`
      UPDATE syncs SET status = 'syncing', syncing_at = now(), updated_at = now()
       WHERE id = (SELECT id FROM syncs WHERE status = 'pending' AND parent_id IS NULL
                    ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, family_id, syncable_type, syncable_id, window_start_date`;
    return row ?? null;
  }

  async function finish(id: string, outcome: { error?: string | undefined; windowEnd?: string | null | undefined }) {
    await db.sync.update({
      where: { id },
      data: outcome.error
        ? { status: "failed", failedAt: new Date(), error: outcome.error }
        : { status: "completed", completedAt: new Date(), ...(outcome.windowEnd ? { windowEndDate: dateOf(outcome.windowEnd) } : {}) },
    });
  }

  async function syncAccount(familyId: string, accountId: string, windowStart: string | null) {
    const result = await materializeBalances(db, accountId, windowStart);
    await matchTransfers(db, familyId, { accountId, since: windowStart ? addDays(windowStart, -MATCH_WINDOW_DAYS) : null });
    return result;
  }

  async function run(sync: ClaimedSync): Promise<void> {
    const windowStart = sync.window_start_date ? isoDateOf(sync.window_start_date) : null;
    if (sync.syncable_type === "Account") {
      try {
        const result = await syncAccount(sync.family_id, sync.syncable_id, windowStart);
        await finish(sync.id, { windowEnd: result.to });
      } catch (err) {
        log.warn({ err, sync_id: sync.id }, "account sync failed");
        await finish(sync.id, { error: publicMessageOf(err) });
      }
      return;
    }
    // A family sync: every account in full as a child sync, then matching across the family.
    const accounts = await db.account.findMany({ where: { familyId: sync.family_id, status: { not: "pending_deletion" } }, select: { id: true } });
    let failures = 0;
    for (const account of accounts) {
      const child = await db.sync.create({
        data: { familyId: sync.family_id, syncableType: "Account", syncableId: account.id, parentId: sync.id, status: "syncing", syncingAt: new Date() },
      });
      try {
        const result = await materializeBalances(db, account.id, null);
        await finish(child.id, { windowEnd: result.to });
      } catch (err) {
        failures++;
        log.warn({ err, sync_id: child.id }, "account sync failed");
        await finish(child.id, { error: publicMessageOf(err) });
      }
    }
    try {
      await matchTransfers(db, sync.family_id);
      await finish(sync.id, failures > 0 ? { error: `${failures} of ${accounts.length} accounts failed to sync` } : {});
    } catch (err) {
      log.warn({ err, sync_id: sync.id }, "family sync failed");
      await finish(sync.id, { error: publicMessageOf(err) });
    }
  }

  /** Removes one account scheduled for deletion (its entries, balances and transfers go with it). */
  async function removeOneAccount(): Promise<boolean> {
    return db.$transaction(
      async (tx) => {
        const [account] = await tx.$queryRaw<{ id: string; family_id: string }[]>`
        SELECT id, family_id FROM accounts WHERE status = 'pending_deletion' LIMIT 1 FOR UPDATE SKIP LOCKED`;
        if (!account) return false;
        const transactions = await tx.entry.count({ where: { accountId: account.id, kind: "transaction" } });
        await tx.account.delete({ where: { id: account.id } });
        await bumpLedgerVersion(tx, account.family_id);
        await adjustTransactionCount(tx, account.family_id, -transactions);
        return true;
      },
      // An account of a million entries takes far longer to delete than Prisma's 5 s default.
      { timeout: 600_000, maxWait: 30_000 },
    );
  }

  /** Does everything queued now; true when something was done. */
  async function step(): Promise<boolean> {
    const sync = await claim();
    if (sync) {
      await run(sync);
      return true;
    }
    return removeOneAccount();
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
      // Syncs left "syncing" by a stopped instance never finish: mark them stale and queue them again.
      const stale = await db.$queryRaw<{ syncable_id: string; family_id: string }[]>`
        UPDATE syncs SET status = 'stale', updated_at = now()
         WHERE status = 'syncing' AND syncing_at < now() - interval '10 minutes' AND parent_id IS NULL
        RETURNING syncable_id, family_id`;
      for (const sync of stale) {
        await db.sync.create({ data: { familyId: sync.family_id, syncableType: "Account", syncableId: sync.syncable_id } });
      }
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
