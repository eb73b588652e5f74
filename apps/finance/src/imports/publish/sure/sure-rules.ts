import {
  AppError,
  CreateCategoryBodySchema,
  CreateMerchantBodySchema,
  CreateRuleBodySchema,
  CreateTagBodySchema,
  RULE_ACTION_REFERENCES,
  RULE_CONDITION_REFERENCES,
  RULE_LIMITS,
} from "@hearth/contracts";
import { dateOf } from "../../../ledger/dates";
import { checkActionReferences } from "../../../rules/rule-validation";
import { lockFamilyRules } from "../../family-lock-queries";
import type { SureOperand, SureRuleConditionValues, SureRuleValues, SureValueRef } from "../../ndjson";
import { PublishError } from "../publish-error";
import { countFamilyRules, createImportedRule, makeReference, referenceNamed, type MadeKind, type ReferenceKind } from "../rule-import-queries";
import type { MappedKind, SurePublishContext } from "./sure-publish-context";

/** The conditions and actions whose operand names a record: Sure's exporter writes the first three by name with a value_ref. */
const CONDITION_REFS: Readonly<Record<string, ReferenceKind>> = RULE_CONDITION_REFERENCES;
const ACTION_REFS: Readonly<Record<string, ReferenceKind>> = RULE_ACTION_REFERENCES;
const MAPPED: Record<ReferenceKind, MappedKind> = { Category: "categories", Merchant: "merchants", Tag: "tags", Account: "accounts" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why a rule of the file cannot be saved: the import fails naming its line. */
class RuleProblem extends Error {}

/**
 * resolve_rule_condition_value / resolve_rule_action_value: a category, merchant or tag operand
 * becomes an id. The record its value_ref (or its value) names in the file is its new id;
 * an id the file does not give is kept (the family's own, or one since deleted: the rule's
 * checks judge it); a name is the family's record of that name, made when missing as Sure's
 * find_by(name) || create! does. Accounts are never made: their names stay, and fail the checks.
 */
function operandResolver(context: SurePublishContext) {
  const { tx, familyId, importId, ids } = context;
  const byName = new Map<string, string>();
  let made = 0;

  async function named(kind: MadeKind, name: string): Promise<string> {
    const key = `${kind}\u0000${name}`;
    const known = byName.get(key);
    if (known !== undefined) return known;
    const id = (await referenceNamed(tx, familyId, kind, name)) ?? (await make(kind, name));
    byName.set(key, id);
    return id;
  }

  async function make(kind: MadeKind, name: string): Promise<string> {
    const check =
      kind === "Category"
        ? CreateCategoryBodySchema.safeParse({ category: { name } })
        : kind === "Merchant"
          ? CreateMerchantBodySchema.safeParse({ merchant: { name } })
          : CreateTagBodySchema.safeParse({ tag: { name } });
    if (!check.success)
      throw new RuleProblem(`cannot make ${kind.toLowerCase()} ${JSON.stringify(name)}: ${check.error.issues.map((i) => i.message).join("; ")}`);
    made++;
    return makeReference(tx, familyId, importId, kind, name);
  }

  return {
    get made() {
      return made;
    },
    async resolve(kind: ReferenceKind | undefined, operand: SureOperand, ref: SureValueRef | null): Promise<string | null> {
      if (operand === null) return null;
      if (kind === undefined || typeof operand === "boolean") return String(operand);
      const fromRef = ref?.id && (ref.type === null || ref.type === kind) ? ids.get(MAPPED[kind], ref.id) : null;
      const fromFile = fromRef ?? ids.get(MAPPED[kind], operand);
      if (fromFile !== null) return fromFile;
      if (UUID.test(operand) || kind === "Account") return operand;
      return named(kind, operand);
    },
  };
}
type OperandResolver = ReturnType<typeof operandResolver>;

async function resolvedCondition(condition: SureRuleConditionValues, operands: OperandResolver): Promise<Record<string, unknown>> {
  // Own keys only: a condition type named like an Object member is no reference (undefined: the value is kept as written).
  const resolve =
    condition.operator === "is_null" ? null : Object.hasOwn(CONDITION_REFS, condition.condition_type) ? CONDITION_REFS[condition.condition_type] : undefined;
  const subConditions: Record<string, unknown>[] = [];
  for (const sub of condition.sub_conditions) subConditions.push(await resolvedCondition(sub, operands));
  return {
    condition_type: condition.condition_type,
    operator: condition.operator,
    value: resolve === null ? null : await operands.resolve(resolve, condition.operand, condition.value_ref),
    ...(subConditions.length > 0 ? { sub_conditions: subConditions } : {}),
  };
}

/** The rule with its operands resolved, checked as rules.create checks a new rule. */
async function validRule(record: SureRuleValues, operands: OperandResolver) {
  const conditions: Record<string, unknown>[] = [];
  for (const condition of record.conditions) conditions.push(await resolvedCondition(condition, operands));
  const actions: Record<string, unknown>[] = [];
  for (const action of record.actions) {
    actions.push({ action_type: action.action_type, value: await operands.resolve(ACTION_REFS[action.action_type], action.operand, action.value_ref) });
  }
  const parsed = CreateRuleBodySchema.safeParse({
    rule: { name: record.name, resource_type: record.resource_type, active: record.active, effective_date: record.effective_date, conditions, actions },
  });
  if (!parsed.success) throw new RuleProblem(parsed.error.issues.map((issue) => issue.message).join("; "));
  return parsed.data.rule;
}

/**
 * import_rules: each Rule record a new rule of the family, within its 200, under the rules' lock
 * (as rules.create). A rule that rules.create would refuse fails the import, naming its line.
 */
export async function publishRules(context: SurePublishContext, records: readonly SureRuleValues[]) {
  const { tx, familyId } = context;
  if (records.length === 0) return { rules: 0, rule_references_created: 0 };
  await lockFamilyRules(tx, familyId);
  const existing = await countFamilyRules(tx, familyId);
  if (existing + records.length > RULE_LIMITS.rulesPerFamily) {
    throw new PublishError(`A family can have at most ${RULE_LIMITS.rulesPerFamily} rules: it has ${existing} and the file brings ${records.length}.`);
  }
  const operands = operandResolver(context);
  for (const record of records) {
    try {
      const rule = await validRule(record, operands);
      await checkActionReferences(tx, familyId, rule.actions);
      await createImportedRule(tx, {
        id: context.newId(),
        familyId,
        importId: context.importId,
        name: rule.name ?? null,
        resourceType: rule.resource_type ?? "transaction",
        active: rule.active ?? false,
        effectiveDate: rule.effective_date ? dateOf(rule.effective_date) : null,
        conditions: rule.conditions ?? [],
        actions: rule.actions,
      });
    } catch (err) {
      if (err instanceof RuleProblem) throw new PublishError(`Line ${record.line} Rule: ${err.message}`);
      if (err instanceof AppError) throw new PublishError(`Line ${record.line} Rule: ${(err.errors ?? [err.message]).join("; ")}`);
      throw err;
    }
  }
  await context.linesDone(records.length);
  return { rules: records.length, rule_references_created: operands.made };
}
