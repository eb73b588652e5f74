import type { PreviewRow } from "./rule-engine-queries";
import type { Rule, RulePreview } from "@hearth/contracts";
import { isoDateOf } from "../ledger/dates";
import { displayOf } from "../ledger/money";
import type { RuleRow } from "./rule-definition";

type ConditionRow = RuleRow["conditions"][number];
type SubConditionRow = ConditionRow["subConditions"][number];

function subConditionOf(row: SubConditionRow) {
  return {
    id: row.id,
    condition_type: row.conditionType,
    operator: row.operator,
    value: row.value,
    sub_conditions: [],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Sure's _rule.json.jbuilder: top-level conditions, each compound with its sub-conditions. */
export function toRuleResource(row: RuleRow): Rule {
  return {
    id: row.id,
    name: row.name,
    resource_type: "transaction",
    active: row.active,
    effective_date: row.effectiveDate ? isoDateOf(row.effectiveDate) : null,
    conditions: row.conditions.map((condition) => ({ ...subConditionOf(condition), sub_conditions: condition.subConditions.map(subConditionOf) })),
    actions: row.actions.map((action) => ({
      id: action.id,
      action_type: action.actionType,
      value: action.value,
      created_at: action.createdAt.toISOString(),
      updated_at: action.updatedAt.toISOString(),
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A transaction the rule would change, with the Transaction resource's amount conventions. */
function previewTransactionOf(row: PreviewRow): RulePreview["transactions"][number] {
  const size = Number(row.amount_cents < 0n ? -row.amount_cents : row.amount_cents);
  return {
    id: row.id,
    date: isoDateOf(row.date),
    name: row.name,
    amount: displayOf(row.amount_cents, row.currency),
    amount_cents: size,
    signed_amount_cents: row.amount_cents < 0n ? size : -size + 0,
    currency: row.currency,
    classification: row.amount_cents < 0n ? "income" : "expense",
    account: { id: row.account_id, name: row.account_name, account_type: row.account_type },
    changes: row.changes,
  };
}

export function toRulePreview(ruleId: string, preview: { matched: number; modified: number; rows: PreviewRow[] }): RulePreview {
  return {
    rule_id: ruleId,
    transactions_matched: preview.matched,
    transactions_to_change: preview.modified,
    transactions: preview.rows.map(previewTransactionOf),
  };
}
