import type { Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { SyncSignal } from "../syncs/sync-signal";
import { createRuleHandlers } from "./rule-handlers";
import { createRuleRepository } from "./rule-repository";
import { createRuleRunHandlers } from "./rule-run-handlers";
import { createRuleRunQueue } from "./rule-run-queue";
import { createRuleRunRepository } from "./rule-run-repository";
import { createRuleRunWorker, type RuleRunWorkerOptions } from "./rule-run-worker";

export type RuleRunWorkerTuning = Pick<RuleRunWorkerOptions, "pollMs" | "leaseMs">;

/** Rules and rule runs wired on the database: their procedures and the background worker that runs queued runs. */
export function createRulesModule(db: FinanceDb, log: Logger, syncs: SyncSignal, tuning: RuleRunWorkerTuning = {}) {
  const runs = createRuleRunRepository(db);
  const worker = createRuleRunWorker({ queue: createRuleRunQueue(db), log, syncs, ...tuning });
  return {
    handlers: { ...createRuleHandlers(createRuleRepository(db), runs, worker), ...createRuleRunHandlers(runs) },
    worker,
  };
}
