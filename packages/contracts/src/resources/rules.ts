import { z } from "zod";
import { CentsSchema } from "../money";
import { BooleanParamSchema, DateInputSchema, DateSchema, PageQuerySchema, TimestampSchema, UuidSchema, UUID_TEXT } from "../primitives";
import { PageMetaSchema } from "./common";
import { ACTIVITY_LABELS } from "./trades";

// Sure's Rule::Registry::TransactionResource: what a transaction rule can test and do.

/** Each condition type with the kind of filter it is (Sure's ConditionFilter#type; transaction_type has its own operators). */
export const RULE_CONDITION_TYPES = {
  transaction_name: "text",
  transaction_amount: "number",
  transaction_type: "type",
  transaction_merchant: "select",
  transaction_category: "select",
  transaction_tag: "select",
  transaction_details: "text",
  transaction_notes: "text",
  transaction_account: "select",
} as const;
export type RuleConditionType = keyof typeof RULE_CONDITION_TYPES;
export type RuleFilterKind = (typeof RULE_CONDITION_TYPES)[RuleConditionType];

/** Sure's ConditionFilter::OPERATORS_MAP (and TransactionType#operators). */
export const RULE_OPERATORS = {
  text: ["like", "=", "is_null"],
  number: [">", ">=", "<", "<=", "=", "!="],
  select: ["=", "is_null"],
  type: ["="],
} as const satisfies Record<RuleFilterKind, readonly string[]>;

/** A compound condition ANDs or ORs its sub-conditions (one level deep). */
export const COMPOUND_CONDITION = "compound";
export const COMPOUND_OPERATORS = ["and", "or"] as const;

/** Sure's TransactionType filter values. */
export const RULE_TRANSACTION_TYPES = ["income", "expense", "transfer"] as const;

/** Sure's action executors (the AI ones and e-mail notification are not offered). */
export const RULE_ACTION_TYPES = [
  "set_transaction_category",
  "set_transaction_tags",
  "set_transaction_merchant",
  "set_transaction_name",
  "set_investment_activity_label",
  "exclude_transaction",
  "set_as_transfer_or_payment",
] as const;
export type RuleActionType = (typeof RULE_ACTION_TYPES)[number];

/** The record an action's value names: checked to be the family's own when a rule is saved. */
export const RULE_ACTION_REFERENCES = {
  set_transaction_category: "Category",
  set_transaction_tags: "Tag",
  set_transaction_merchant: "Merchant",
  set_as_transfer_or_payment: "Account",
} as const satisfies Partial<Record<RuleActionType, string>>;

/** The conditions whose value names a record of the family (exports write them by name, imports resolve them). */
export const RULE_CONDITION_REFERENCES = {
  transaction_category: "Category",
  transaction_merchant: "Merchant",
  transaction_tag: "Tag",
  transaction_account: "Account",
} as const satisfies Partial<Record<RuleConditionType, string>>;

/** Bounds on what a client may send: rules stay shallow and wide, and cheap to evaluate on every new transaction. */
/**
 * Every condition is evaluated per transaction, and every active rule at each transaction's
 * creation: the bounds keep a rule's cost and a family's create-time check small (a rule of
 * 2,500 leaves took seconds per thousand transactions).
 */
export const RULE_LIMITS = { conditions: 20, subConditions: 20, leaves: 40, valueLength: 500, nameLength: 255, rulesPerFamily: 200 } as const;

/** An amount condition's value: a size in major units (Sure compares the absolute amount). */
export const RULE_AMOUNT_VALUE = /^\d{1,13}(\.\d{1,20})?$/;

// ---------------------------------------------------------------- responses

/** A sub-condition never has sub-conditions of its own (Sure forbids nesting compounds). */
export const RuleSubConditionSchema = z.object({
  id: UuidSchema,
  condition_type: z.string(),
  operator: z.string(),
  value: z.string().nullable(),
  sub_conditions: z.array(z.never()).max(0),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});

export const RuleConditionSchema = RuleSubConditionSchema.extend({ sub_conditions: z.array(RuleSubConditionSchema) });
export type RuleCondition = z.infer<typeof RuleConditionSchema>;

export const RuleActionSchema = z.object({
  id: UuidSchema,
  action_type: z.string(),
  value: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type RuleAction = z.infer<typeof RuleActionSchema>;

export const RuleSchema = z.object({
  id: UuidSchema,
  name: z.string().nullable(),
  resource_type: z.enum(["transaction"]),
  active: z.boolean(),
  effective_date: DateSchema.nullable(),
  conditions: z.array(RuleConditionSchema),
  actions: z.array(RuleActionSchema),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Rule = z.infer<typeof RuleSchema>;

export const RuleResponseSchema = z.object({ data: RuleSchema });
export const RuleCollectionSchema = z.object({ data: z.array(RuleSchema).max(100), meta: PageMetaSchema });

/** Sure's RuleRun. `pending` until the background worker has applied the rule. */
export const RuleRunSchema = z.object({
  id: UuidSchema,
  rule_id: UuidSchema,
  rule_name: z.string().nullable(),
  execution_type: z.enum(["manual", "scheduled"]),
  status: z.enum(["pending", "success", "failed"]),
  transactions_queued: z.number().int().min(0),
  transactions_processed: z.number().int().min(0),
  transactions_modified: z.number().int().min(0),
  pending_jobs_count: z.number().int().min(0),
  executed_at: TimestampSchema,
  error_message: z.string().nullable(),
  rule: z.object({ id: UuidSchema, name: z.string().nullable(), resource_type: z.string(), active: z.boolean() }).nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type RuleRun = z.infer<typeof RuleRunSchema>;

export const RuleRunResponseSchema = z.object({ data: RuleRunSchema });
export const RuleRunCollectionSchema = z.object({ data: z.array(RuleRunSchema).max(100), meta: PageMetaSchema });

/** A transaction a rule would change, and which of its actions would change it. */
export const RulePreviewTransactionSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  name: z.string(),
  amount: z.string(),
  amount_cents: CentsSchema.nonnegative().describe("The amount's size in minor units"),
  signed_amount_cents: CentsSchema.describe("Minor units, positive for income, negative for an expense"),
  currency: z.string(),
  classification: z.enum(["income", "expense"]),
  account: z.object({ id: UuidSchema, name: z.string(), account_type: z.string().nullable() }),
  changes: z.array(z.enum(RULE_ACTION_TYPES)),
});

export const RULE_PREVIEW_LIMIT = 100;

/** What applying the rule now would do: nothing is changed by asking. */
export const RulePreviewSchema = z.object({
  data: z.object({
    rule_id: UuidSchema,
    transactions_matched: z.number().int().min(0).describe("Transactions the conditions match"),
    transactions_to_change: z.number().int().min(0).describe("Of those, the ones at least one action would change"),
    transactions: z
      .array(RulePreviewTransactionSchema)
      .max(RULE_PREVIEW_LIMIT)
      .describe(`The transactions that would change, newest first (at most ${RULE_PREVIEW_LIMIT})`),
  }),
});
export type RulePreview = z.infer<typeof RulePreviewSchema>["data"];

// ---------------------------------------------------------------- queries

/** Sure's controllers filter only on a parameter that is `present?`: an empty one is no filter. */
function presentOnly<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());
}

export const RuleListQuerySchema = PageQuerySchema.extend({
  resource_type: presentOnly(z.enum(["transaction"], { message: "resource_type must be one of: transaction" })),
  active: presentOnly(BooleanParamSchema),
});

/** Sure's Time.iso8601 filters, kept to years a timestamp column and JavaScript agree on. */
const ISO_TIMESTAMP = z.iso.datetime({ offset: true });
function timestampFilter(name: string) {
  return z
    .string()
    .meta({ format: "date-time" })
    .refine((text) => ISO_TIMESTAMP.safeParse(text).success && text >= "1900" && text < "3000", { message: `${name} must be an ISO 8601 timestamp` })
    .transform((text) => new Date(text));
}

export const RuleRunListQuerySchema = PageQuerySchema.extend({
  rule_id: presentOnly(z.uuid({ message: "rule_id must be a valid UUID" })),
  status: presentOnly(z.enum(["pending", "success", "failed"], { message: "status must be one of: pending, success, failed" })),
  execution_type: presentOnly(z.enum(["manual", "scheduled"], { message: "execution_type must be one of: manual, scheduled" })),
  start_executed_at: presentOnly(timestampFilter("start_executed_at")),
  end_executed_at: presentOnly(timestampFilter("end_executed_at")),
});

// ---------------------------------------------------------------- bodies

/** A condition or action as stored: every value is text (Sure's `value` column), null where none applies. */
export interface RuleConditionInput {
  condition_type: string;
  operator: string;
  value: string | null;
  sub_conditions: RuleConditionInput[];
}
export interface RuleActionInput {
  action_type: RuleActionType;
  value: string | null;
}

const RawValue = z
  .union([z.string().max(RULE_LIMITS.valueLength, { message: `value is too long (maximum is ${RULE_LIMITS.valueLength} characters)` }), z.number().finite()])
  .nullable()
  .optional();

const RawSubCondition = z.object({
  condition_type: z.string().trim().min(1, { message: "condition_type can't be blank" }).max(100, { message: "condition_type is too long" }),
  operator: z.string().trim().min(1, { message: "operator can't be blank" }).max(20, { message: "operator is too long" }),
  value: RawValue,
});
const RawCondition = RawSubCondition.extend({
  sub_conditions: z
    .array(RawSubCondition)
    .max(RULE_LIMITS.subConditions, { message: `A compound condition can have at most ${RULE_LIMITS.subConditions} sub-conditions` })
    .optional(),
});
type RawCondition = z.infer<typeof RawCondition>;
type Issue = { path: (string | number)[]; message: string };

const textOf = (value: string | number | null | undefined) => (value === null || value === undefined ? "" : String(value).trim());

/** Why a condition cannot be saved (Sure's UnsupportedConditionError / UnsupportedOperatorError / value presence), each naming the culprit. */
function conditionIssues(condition: RawCondition, nested: boolean): Issue[] {
  const { condition_type: type, operator } = condition;
  if (type === COMPOUND_CONDITION) {
    if (nested) return [{ path: ["condition_type"], message: "Compound conditions cannot be nested" }];
    const issues: Issue[] = (COMPOUND_OPERATORS as readonly string[]).includes(operator)
      ? []
      : [{ path: ["operator"], message: `Unsupported operator: ${operator} for compound (use one of: ${COMPOUND_OPERATORS.join(", ")})` }];
    (condition.sub_conditions ?? []).forEach((sub, index) => {
      for (const issue of conditionIssues(sub, true)) issues.push({ path: ["sub_conditions", index, ...issue.path], message: issue.message });
    });
    return issues;
  }
  // Own keys only: "constructor" or "toString" are in every object's prototype chain, not condition types.
  if (!Object.hasOwn(RULE_CONDITION_TYPES, type)) return [{ path: ["condition_type"], message: `Unsupported condition type: ${type}` }];
  const kind = RULE_CONDITION_TYPES[type as RuleConditionType];
  const operators: readonly string[] = RULE_OPERATORS[kind];
  if (!operators.includes(operator)) {
    return [{ path: ["operator"], message: `Unsupported operator: ${operator} for ${type} (use one of: ${operators.join(", ")})` }];
  }
  if ((condition.sub_conditions ?? []).length > 0) return [{ path: ["sub_conditions"], message: "Only compound conditions have sub-conditions" }];
  if (operator === "is_null") return [];
  const value = textOf(condition.value);
  if (value === "") return [{ path: ["value"], message: "value can't be blank" }];
  if (kind === "number" && !RULE_AMOUNT_VALUE.test(value)) return [{ path: ["value"], message: `value of ${type} must be a non-negative number like 12.34` }];
  if (kind === "select" && !UUID_TEXT.test(value)) return [{ path: ["value"], message: `value of ${type} must be an id (UUID)` }];
  if (kind === "type" && !(RULE_TRANSACTION_TYPES as readonly string[]).includes(value)) {
    return [{ path: ["value"], message: `value of ${type} must be one of: ${RULE_TRANSACTION_TYPES.join(", ")}` }];
  }
  return [];
}

/** The stored form: values as text, none for is_null and compounds; text values kept as given (matching normalises whitespace). */
function storedCondition(condition: RawCondition): RuleConditionInput {
  const { condition_type: type, operator } = condition;
  const kind = type === COMPOUND_CONDITION ? null : RULE_CONDITION_TYPES[type as RuleConditionType];
  let value: string | null = null;
  if (kind !== null && operator !== "is_null") {
    value = kind === "text" ? String(condition.value) : textOf(condition.value);
    if (kind === "select") value = value.toLowerCase();
  }
  return { condition_type: type, operator, value, sub_conditions: type === COMPOUND_CONDITION ? (condition.sub_conditions ?? []).map(storedCondition) : [] };
}

const ConditionsSchema = z
  .array(RawCondition)
  .max(RULE_LIMITS.conditions, { message: `A rule can have at most ${RULE_LIMITS.conditions} conditions` })
  .superRefine((conditions, ctx) => {
    conditions.forEach((condition, index) => {
      for (const issue of conditionIssues(condition, false)) ctx.addIssue({ code: "custom", path: [index, ...issue.path], message: issue.message });
    });
    const leaves = conditions.reduce((sum, condition) => sum + Math.max(1, condition.sub_conditions?.length ?? 0), 0);
    if (leaves > RULE_LIMITS.leaves)
      ctx.addIssue({
        code: "custom",
        message: `A rule can have at most ${RULE_LIMITS.leaves} conditions in all, sub-conditions included (this one has ${leaves})`,
      });
  })
  .transform((conditions) => conditions.map(storedCondition));

const RawAction = z.object({
  action_type: z.string().trim().min(1, { message: "action_type can't be blank" }).max(100, { message: "action_type is too long" }),
  value: RawValue,
});
type RawAction = z.infer<typeof RawAction>;

function actionIssues(action: RawAction): Issue[] {
  const type = action.action_type;
  if (!(RULE_ACTION_TYPES as readonly string[]).includes(type)) return [{ path: ["action_type"], message: `Unsupported action type: ${type}` }];
  const value = textOf(action.value);
  if (type === "exclude_transaction") return [];
  if (value === "") return [{ path: ["value"], message: `value of ${type} can't be blank` }];
  if (type in RULE_ACTION_REFERENCES && !UUID_TEXT.test(value)) return [{ path: ["value"], message: `value of ${type} must be an id (UUID)` }];
  if (type === "set_investment_activity_label" && !(ACTIVITY_LABELS as readonly string[]).includes(value)) {
    return [{ path: ["value"], message: `value of ${type} must be one of: ${ACTIVITY_LABELS.join(", ")}` }];
  }
  return [];
}

/** Sure's Rule validations: at least one action, no action type twice. */
const ActionsSchema = z
  .array(RawAction)
  .max(RULE_ACTION_TYPES.length * 2, { message: `A rule can have at most ${RULE_ACTION_TYPES.length} actions, one of each type` })
  .superRefine((actions, ctx) => {
    if (actions.length === 0) ctx.addIssue({ code: "custom", message: "Rule must have at least one action" });
    actions.forEach((action, index) => {
      for (const issue of actionIssues(action)) ctx.addIssue({ code: "custom", path: [index, ...issue.path], message: issue.message });
    });
    const types = actions.map((action) => action.action_type);
    const repeated = [...new Set(types.filter((type, index) => types.indexOf(type) !== index))];
    if (repeated.length > 0) ctx.addIssue({ code: "custom", message: `Rule cannot have duplicate actions: ${repeated.join(", ")}` });
  })
  .transform((actions) =>
    actions.map((action): RuleActionInput => ({
      action_type: action.action_type as RuleActionType,
      value: action.action_type === "exclude_transaction" ? null : textOf(action.value),
    })),
  );

/** Sure's normalize_name: a blank name is no name. */
const RuleName = z
  .string()
  .max(RULE_LIMITS.nameLength, { message: `Name is too long (maximum is ${RULE_LIMITS.nameLength} characters)` })
  .nullable()
  .transform((name) => (name === null || name.trim() === "" ? null : name.trim()));

const RuleFields = z.object({
  name: RuleName.optional(),
  resource_type: z.enum(["transaction"], { message: "resource_type must be one of: transaction" }).optional(),
  active: BooleanParamSchema.optional(),
  effective_date: DateInputSchema.nullable().optional().describe("Only transactions dated on or after it match"),
  conditions: ConditionsSchema.optional().describe("Top-level conditions are ANDed; a compound one ANDs or ORs its sub_conditions"),
  actions: ActionsSchema.optional(),
});

export const CreateRuleBodySchema = z.object({ rule: RuleFields.extend({ actions: ActionsSchema }) });
/** Conditions or actions, when given, replace the rule's. */
export const UpdateRuleBodySchema = z.object({ rule: RuleFields });
export type NewRuleInput = z.output<typeof CreateRuleBodySchema>["rule"];
export type RuleChangesInput = z.output<typeof UpdateRuleBodySchema>["rule"];

/** Sure re-applies a rule over attributes people set by hand only when asked to (ignore_attribute_locks). */
export const ApplyRuleBodySchema = z.object({ ignore_attribute_locks: BooleanParamSchema.optional() });
