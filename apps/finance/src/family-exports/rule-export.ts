import { isoDateOf } from "../ledger/dates";
import type { RuleRow } from "../rules/rule-definition";
import { read, type ExportScope } from "./export-scope";
import { recordsByIdOrName, rulesAfter, type RefType } from "./rule-export-queries";

/** Sure's value_ref: the record a category, merchant or tag operand named when exported. */
interface ValueRef {
  type: RefType;
  id: string;
  name: string;
}

export interface ExportedCondition {
  condition_type: string;
  operator: string;
  value: string | null;
  value_ref?: ValueRef;
  sub_conditions?: ExportedCondition[];
}

export interface ExportedAction {
  action_type: string;
  value: string | null;
  value_ref?: ValueRef;
}

/** A rule as Sure's serialize_rule_for_export writes it (the Rule record's data, and rules.csv's cells). */
export interface ExportedRule {
  id: string;
  name: string | null;
  resource_type: string;
  active: boolean;
  effective_date: string | null;
  conditions: ExportedCondition[];
  actions: ExportedAction[];
}

const CONDITION_REFS: Record<string, RefType> = { transaction_category: "Category", transaction_merchant: "Merchant", transaction_tag: "Tag" };
const ACTION_REFS: Record<string, RefType> = { set_transaction_category: "Category", set_transaction_merchant: "Merchant", set_transaction_tags: "Tag" };
/** Sure's UuidFormat. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ruby's present? on a string: not empty and not only whitespace. */
const present = (value: string | null): value is string => value !== null && value.trim() !== "";

/** An operand to look up: by id when it looks like one, else by name for actions only (Sure's fallback_to_name). */
interface Lookup {
  type: RefType;
  value: string;
  byName: boolean;
}

function lookupOf(type: RefType | undefined, value: string | null, fallbackToName: boolean): Lookup | null {
  if (type === undefined || !present(value)) return null;
  if (UUID.test(value)) return { type, value: value.toLowerCase(), byName: false };
  return fallbackToName ? { type, value, byName: true } : null;
}

/** The family's categories, tags and (own) merchants the lookups name, keyed "Type:id" and "Type=name". */
async function resolve(scope: ExportScope, lookups: Lookup[]): Promise<Map<string, ValueRef>> {
  const found = new Map<string, ValueRef>();
  for (const type of ["Category", "Merchant", "Tag"] as const) {
    const mine = lookups.filter((lookup) => lookup.type === type);
    if (mine.length === 0) continue;
    const ids = mine.filter((lookup) => !lookup.byName).map((lookup) => lookup.value);
    const names = mine.filter((lookup) => lookup.byName).map((lookup) => lookup.value);
    const rows = await read(scope, () => recordsByIdOrName(scope.db, scope.familyId, type, ids, names));
    for (const row of rows) {
      const ref = { type, id: row.id, name: row.name };
      found.set(`${type}:${row.id}`, ref);
      found.set(`${type}=${row.name}`, ref);
    }
  }
  return found;
}

function operand(value: string | null, lookup: Lookup | null, found: Map<string, ValueRef>): { value: string | null; value_ref?: ValueRef } {
  const ref = lookup && found.get(lookup.byName ? `${lookup.type}=${lookup.value}` : `${lookup.type}:${lookup.value}`);
  return ref ? { value: ref.name, value_ref: ref } : { value };
}

type StoredCondition = RuleRow["conditions"][number] | RuleRow["conditions"][number]["subConditions"][number];

function conditionOf(condition: StoredCondition, found: Map<string, ValueRef>): ExportedCondition {
  const lookup = lookupOf(CONDITION_REFS[condition.conditionType], condition.value, false);
  const exported: ExportedCondition = { condition_type: condition.conditionType, operator: condition.operator, ...operand(condition.value, lookup, found) };
  const subs = "subConditions" in condition ? condition.subConditions : [];
  if (condition.conditionType === "compound" && subs.length > 0) exported.sub_conditions = subs.map((sub) => conditionOf(sub, found));
  return exported;
}

function ruleOf(rule: RuleRow, found: Map<string, ValueRef>): ExportedRule {
  return {
    id: rule.id,
    name: rule.name,
    resource_type: rule.resourceType,
    active: rule.active,
    effective_date: rule.effectiveDate ? isoDateOf(rule.effectiveDate) : null,
    conditions: rule.conditions.map((condition) => conditionOf(condition, found)),
    actions: rule.actions.map((action) => ({
      action_type: action.actionType,
      ...operand(action.value, lookupOf(ACTION_REFS[action.actionType], action.value, true), found),
    })),
  };
}

/**
 * The family's rules a batch at a time, by id, as Sure exports them: a category, merchant or tag
 * operand given by id is written by name with a value_ref (an action's operand also by name);
 * an id that no longer resolves stays as it is, without a ref.
 */
export async function* ruleBatches(scope: ExportScope, part: string): AsyncGenerator<ExportedRule[]> {
  let after: string | null = null;
  for (;;) {
    const rules: RuleRow[] = await read(scope, () => rulesAfter(scope.db, scope.familyId, after, scope.batchSize));
    scope.onRead?.(part);
    if (rules.length > 0) {
      const lookups = rules.flatMap((rule) => [
        ...rule.conditions
          .flatMap((condition) => [condition, ...condition.subConditions])
          .map((c) => lookupOf(CONDITION_REFS[c.conditionType], c.value, false)),
        ...rule.actions.map((action) => lookupOf(ACTION_REFS[action.actionType], action.value, true)),
      ]);
      const found = await resolve(
        scope,
        lookups.filter((lookup): lookup is Lookup => lookup !== null),
      );
      yield rules.map((rule) => ruleOf(rule, found));
    }
    if (rules.length < scope.batchSize) return;
    after = rules[rules.length - 1]!.id;
  }
}
