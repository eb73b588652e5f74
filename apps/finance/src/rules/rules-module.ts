import type { Logger } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { createRuleHandlers } from "./rule-handlers";
import { createRuleRepository } from "./rule-repository";
import { createRuleRunHandlers } from "./rule-run-handlers";
import { DEFAULT_RULE_RUN_CHUNKING, ruleRunJob, type RuleRunChunking } from "./rule-run-job";
import { createRuleRunProgressQueries } from "./rule-run-progress-queries";
import { createRuleRunRepository } from "./rule-run-repository";

/** Rules and rule runs wired on the database: their procedures, and the job that applies queued runs (`poke` starts one now). */
export function createRulesModule(db: FinanceDb, log: Logger, poke: () => void, chunking: RuleRunChunking = DEFAULT_RULE_RUN_CHUNKING) {
  const runs = createRuleRunRepository(db);
  return {
    handlers: { ...createRuleHandlers(createRuleRepository(db), runs, { poke }), ...createRuleRunHandlers(runs) },
    job: ruleRunJob(db, createRuleRunProgressQueries(db), log, chunking),
  };
}
