import type { Logger } from "@hearth/service-kit";
import type { IdentityDb } from "../../db";
import { createIdentitySweepRepository } from "./identity-sweep-repository";

export interface IdentitySweeperOptions {
  /** Time between sweeps; each wait is drawn within ±20 % of it, so gateway instances drift apart. */
  intervalSeconds: number;
  /** The login throttle's forget window: a key quiet for this long is as good as absent. */
  throttleForgetSeconds: number;
  /** How long Idempotency-Keys are kept. */
  idempotencyRetentionMs: number;
  /** The longest window of the per-address throttles (sign-up, SSO authorize): older counts are spent. */
  throttleWindowSeconds: number;
  /** Rows per DELETE statement. */
  batchSize?: number;
  log: Logger;
}

export type SweepCounts = Record<"loginThrottles" | "refreshTokens" | "sessions" | "ssoFlows" | "ssoTickets" | "idempotencyKeys" | "throttleWindows", number>;

const DEFAULT_BATCH = 500;
const JITTER = 0.2;

/**
 * Purges identity rows nobody can use any more: stale login throttle keys, expired refresh
 * tokens, ended sessions whose tokens are gone, expired SSO flows and tickets, Idempotency-Keys past retention,
 * spent sign-up and SSO throttle windows. Public requests
 * create these (a login for any email, an SSO sign-in started), so without this they grow
 * without bound. `sweep` runs once (tests call it directly); `start` repeats it on a jittered interval.
 */
export function createIdentitySweeper(
  db: IdentityDb,
  { intervalSeconds, throttleForgetSeconds, idempotencyRetentionMs, throttleWindowSeconds, batchSize = DEFAULT_BATCH, log }: IdentitySweeperOptions,
) {
  const purge = createIdentitySweepRepository(db);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  // Set by stop(): a sweep under way finishes its current batches, not the whole backlog.
  let stopping = false;

  /** Deletes batch after batch until a batch comes back short (or the sweeper is stopping); answers the total. */
  async function drain(deleteBatch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await deleteBatch();
      total += deleted;
      if (deleted < batchSize || stopping) return total;
    }
  }

  async function sweep(now = new Date()): Promise<SweepCounts> {
    const forgetBefore = new Date(now.getTime() - throttleForgetSeconds * 1000);
    return {
      loginThrottles: await drain(() => purge.staleLoginThrottles(now, forgetBefore, batchSize)),
      // Tokens first: a session goes once its last token has.
      refreshTokens: await drain(() => purge.expiredRefreshTokens(now, batchSize)),
      sessions: await drain(() => purge.endedSessions(now, batchSize)),
      ssoFlows: await drain(() => purge.expiredSsoFlows(now, batchSize)),
      ssoTickets: await drain(() => purge.expiredSsoTickets(now, batchSize)),
      idempotencyKeys: await drain(() => purge.expiredIdempotencyKeys(new Date(now.getTime() - idempotencyRetentionMs), batchSize)),
      throttleWindows: await drain(() => purge.endedThrottleWindows(new Date(now.getTime() - throttleWindowSeconds * 1000), batchSize)),
    };
  }

  function scheduleNext(): void {
    if (stopped) return;
    const delayMs = intervalSeconds * 1000 * (1 - JITTER + 2 * JITTER * Math.random());
    timer = setTimeout(() => {
      running = sweep()
        .then((counts) => {
          if (Object.values(counts).some((count) => count > 0)) log.info({ purged: counts }, "identity sweep purged expired rows");
        })
        .catch((err: unknown) => log.warn({ err }, "identity sweep failed; retrying at the next interval"))
        .finally(scheduleNext);
    }, delayMs);
    timer.unref();
  }

  return {
    sweep,
    start(): void {
      if (!stopped) return;
      stopped = false;
      scheduleNext();
    },
    async stop(): Promise<void> {
      stopped = true;
      stopping = true;
      clearTimeout(timer);
      await running;
      stopping = false;
    },
  };
}
export type IdentitySweeper = ReturnType<typeof createIdentitySweeper>;
