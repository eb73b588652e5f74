import type { Logger } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import { createPollingLoop } from "@hearth/service-kit";
import { RuleDefinitionError } from "./rule-definition";
import type { ClaimedRuleRun, RuleRunQueue } from "./rule-run-queue";

export interface RuleRunWorkerOptions {
  queue: RuleRunQueue;
  log: Logger;
  /** Poked after a run: a transfer action queues balance syncs. */
  syncs: SyncSignal;
  /** How often to look for work when nobody pokes (runs queued by other instances, claims whose lease ran out). */
  pollMs?: number;
  /** How long a claim keeps other workers off a run before its transaction holds it. */
  leaseMs?: number;
}

export const DEFAULT_RULE_RUN_LEASE_MS = 60_000;

/** What a failed run shows: a rule that cannot run says why; anything else is summarised (the log has it). */
function publicMessageOf(err: unknown): string {
  if (err instanceof RuleDefinitionError) return err.message;
  return "An unexpected error occurred while applying the rule";
}

/**
 * Runs queued rule runs in the background: requests never wait for them; POST .../apply queues
 * one and pokes. Several instances share the queue; a run survives a restart (see rule-run-queue.ts).
 */
export function createRuleRunWorker({ queue, log, syncs, pollMs = 500, leaseMs = DEFAULT_RULE_RUN_LEASE_MS }: RuleRunWorkerOptions) {
  async function run(claimed: ClaimedRuleRun): Promise<void> {
    try {
      if (await queue.execute(claimed)) syncs.poke();
    } catch (err) {
      log.warn({ err, rule_run_id: claimed.id }, "rule run failed");
      await queue.fail(claimed, publicMessageOf(err));
    }
  }

  /** Runs one queued run; true when there was one. A failure to claim or to record a failure (the database away) leaves the run queued. */
  async function step(): Promise<boolean> {
    const claimed = await queue.claim(leaseMs);
    if (!claimed) return false;
    await run(claimed);
    return true;
  }

  const loop = createPollingLoop({ step, pollMs, log, name: "rule run worker" });
  return {
    poke: loop.poke,
    drain: loop.drain,
    async start() {
      loop.start();
    },
    stop: loop.stop,
  };
}
export type RuleRunWorker = ReturnType<typeof createRuleRunWorker>;
