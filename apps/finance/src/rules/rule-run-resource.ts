import type { RuleRun } from "@hearth/contracts";
import type { RuleRunRow } from "./rule-run-repository";

/** Sure's _rule_run.json.jbuilder. */
export function toRuleRunResource(row: RuleRunRow): RuleRun {
  return {
    id: row.id,
    rule_id: row.ruleId,
    rule_name: row.ruleName,
    execution_type: row.executionType === "scheduled" ? "scheduled" : "manual",
    // Stored statuses are Sure's; anything else would be a bug, shown as not finished.
    status: row.status === "success" || row.status === "failed" ? row.status : "pending",
    transactions_queued: row.transactionsQueued,
    transactions_processed: row.transactionsProcessed,
    transactions_modified: row.transactionsModified,
    pending_jobs_count: row.pendingJobsCount,
    executed_at: row.executedAt.toISOString(),
    error_message: row.errorMessage,
    rule: row.rule ? { id: row.rule.id, name: row.rule.name, resource_type: row.rule.resourceType, active: row.rule.active } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
