import type { Logger } from "@hearth/service-kit";
import { createPollingLoop } from "@hearth/service-kit";
import type { ClaimedScan, RecurringScanQueue } from "./recurring-scan-queue";

export interface RecurringScanOptions {
  /** How long after a family's last sync its detection runs: several syncs in a row make one scan (Sure: 30 s). */
  debounceMs: number;
  /** How long a claim holds without renewal. */
  leaseMs: number;
  /** How often a running scan's lease is renewed (well under `leaseMs`). */
  renewEveryMs: number;
  /** How often to look for due scans when nobody pokes. */
  pollMs: number;
  /** How long a failed scan waits before it is tried again. */
  retryAfterMs: number;
}

export const DEFAULT_RECURRING_SCAN: RecurringScanOptions = { debounceMs: 30_000, leaseMs: 60_000, renewEveryMs: 20_000, pollMs: 1_000, retryAfterMs: 60_000 };

export interface RecurringScanWorkerOptions {
  queue: RecurringScanQueue;
  /** Detects one family's recurring transactions (runRecurringScan). */
  scan(familyId: string): Promise<unknown>;
  log: Logger;
  options?: Partial<RecurringScanOptions>;
}

/**
 * The background worker of recurring detection, shaped like the sync worker: a loop that claims
 * due scans (leased, renewed while running), runs each family's detection and takes it off the
 * queue. A scan whose instance died is claimed again once its lease runs out; a failed one is
 * retried after `retryAfterMs`. `request` is what the sync worker calls after each sync.
 */
export function createRecurringScanWorker({ queue, scan, log, options }: RecurringScanWorkerOptions) {
  const settings = { ...DEFAULT_RECURRING_SCAN, ...options };

  /** Runs the scan while renewing its lease; the claim's token follows each renewal, so finishing uses the latest. */
  async function run(claim: ClaimedScan): Promise<void> {
    const held = { ...claim };
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let renewal: Promise<void> | null = null;
    const renew = async () => {
      try {
        const lease = await queue.renew(held, settings.leaseMs);
        if (!lease) {
          if (!done) log.warn({ family_id: held.familyId }, "recurring scan lease lost: another instance claimed it");
          return;
        }
        held.lease = lease;
      } catch (err) {
        log.warn({ err, family_id: held.familyId }, "recurring scan lease renewal failed");
      }
      if (!done) timer = setTimeout(() => (renewal = renew()), settings.renewEveryMs);
    };
    timer = setTimeout(() => (renewal = renew()), settings.renewEveryMs);
    let failed = false;
    try {
      await scan(held.familyId);
    } catch (err) {
      failed = true;
      log.error({ err, family_id: held.familyId }, "recurring scan failed");
    } finally {
      done = true;
      clearTimeout(timer);
      await renewal;
    }
    await (failed ? queue.release(held, settings.retryAfterMs) : queue.finish(held));
  }

  /** Runs one due scan; true when there was one. */
  async function step(): Promise<boolean> {
    const claim = await queue.claim(settings.leaseMs);
    if (!claim) return false;
    await run(claim);
    return true;
  }

  const loop = createPollingLoop({ step, pollMs: settings.pollMs, log, name: "recurring scan worker" });
  return {
    poke: loop.poke,
    drain: loop.drain,
    /** Asks for a debounced scan of the family; never throws into its caller (a sync is done either way). */
    async request(familyId: string): Promise<void> {
      try {
        await queue.request(familyId, settings.debounceMs);
      } catch (err) {
        log.warn({ err, family_id: familyId }, "requesting a recurring scan failed");
      }
    },
    start(): Promise<void> {
      loop.start();
      return Promise.resolve();
    },
    stop: loop.stop,
  };
}
export type RecurringScanWorker = ReturnType<typeof createRecurringScanWorker>;
