import { z } from "zod";
import { RULE_LIMITS } from "@hearth/contracts";
import {
  booleanSchema,
  isBlank,
  nameSchema,
  OptionalImportDateSchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  presence,
  SourceIdSchema,
} from "./field-schemas";
import type { SureOperand, SureRuleActionValues, SureRuleConditionValues, SureRuleValues, SureValueRef } from "./record-values";

/** Actions one rule may carry (Hearth allows one of each type; this bounds the file). */
const MAX_ACTIONS = 20;
const TYPE_MAX = 100;
const OPERATOR_MAX = 20;
/** Sure's UuidFormat. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An operand as written: text, a boolean (Sure keeps an explicit false), or none. */
const OperandSchema = z
  .union([z.string().max(RULE_LIMITS.valueLength, { message: `is too long (maximum is ${RULE_LIMITS.valueLength} characters)` }), z.boolean(), z.null()], {
    message: "must be text, a boolean or null",
  })
  .optional()
  .transform((value): SureOperand => value ?? null);

const ValueRefSchema = z
  .object(
    { type: optionalNameSchema(TYPE_MAX), id: OptionalSourceIdSchema, name: optionalNameSchema(RULE_LIMITS.valueLength) },
    { message: "must be an object" },
  )
  .nullish()
  .transform((ref): SureValueRef | null => ref ?? null);

/** Sure's rule_operand_value: the value, unless it is absent or a UUID a value_ref names (a stale id): the ref's name then. */
function operandOf(value: SureOperand, ref: SureValueRef | null): SureOperand {
  const refName = ref?.name ?? null;
  const present = typeof value === "string" ? ((presence(value) as string | undefined) ?? null) : value;
  if (typeof present === "string" && UUID.test(present) && refName !== null) return refName;
  return present ?? refName;
}

const conditionFields = {
  condition_type: nameSchema(TYPE_MAX).min(1, { message: "can't be blank" }),
  operator: nameSchema(OPERATOR_MAX).min(1, { message: "can't be blank" }),
  value: OperandSchema,
  value_ref: ValueRefSchema,
};

const SubConditionSchema = z
  .object({
    ...conditionFields,
    sub_conditions: z.unknown().optional().refine(isBlank, { message: "cannot be nested: a sub-condition has no sub-conditions" }),
  })
  .transform((data): SureRuleConditionValues => ({
    condition_type: data.condition_type,
    operator: data.operator,
    value: data.value,
    value_ref: data.value_ref,
    operand: operandOf(data.value, data.value_ref),
    sub_conditions: [],
  }));

const ConditionSchema = z
  .object({
    ...conditionFields,
    sub_conditions: z
      .array(SubConditionSchema)
      .max(RULE_LIMITS.subConditions, { message: `must hold at most ${RULE_LIMITS.subConditions} conditions` })
      .nullish(),
  })
  .transform((data): SureRuleConditionValues => ({
    condition_type: data.condition_type,
    operator: data.operator,
    value: data.value,
    value_ref: data.value_ref,
    operand: operandOf(data.value, data.value_ref),
    sub_conditions: data.sub_conditions ?? [],
  }));

const ActionSchema = z
  .object({ action_type: nameSchema(TYPE_MAX).min(1, { message: "can't be blank" }), value: OperandSchema, value_ref: ValueRefSchema })
  .transform((data): SureRuleActionValues => ({
    action_type: data.action_type,
    value: data.value,
    value_ref: data.value_ref,
    operand: operandOf(data.value, data.value_ref),
  }));

/**
 * A Rule record (version 1 of Sure's rule schema) as import_rules reads it: a name may be null,
 * the resource type is transaction. Category, merchant and tag operands stay names (or a
 * value_ref) here; publishing resolves them. Whether each condition and action is one Hearth
 * knows is the rule's own validation, when it is saved.
 */
export const RuleSchema = z
  .object({
    id: SourceIdSchema,
    name: optionalNameSchema(RULE_LIMITS.nameLength),
    resource_type: z.preprocess(presence, z.literal("transaction", { message: "must be transaction" }).optional()).transform(() => "transaction" as const),
    active: booleanSchema(false),
    effective_date: OptionalImportDateSchema,
    conditions: z
      .array(ConditionSchema)
      .max(RULE_LIMITS.conditions, { message: `must hold at most ${RULE_LIMITS.conditions} conditions` })
      .nullish(),
    actions: z
      .array(ActionSchema)
      .max(MAX_ACTIONS, { message: `must hold at most ${MAX_ACTIONS} actions` })
      .nullish(),
  })
  .transform((data): Omit<SureRuleValues, "line"> => ({
    source_id: data.id,
    name: data.name,
    resource_type: data.resource_type,
    active: data.active,
    effective_date: data.effective_date,
    conditions: data.conditions ?? [],
    actions: data.actions ?? [],
  }));
