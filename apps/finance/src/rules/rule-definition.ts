import type { Prisma } from "../generated/prisma/client";

const BY_POSITION = [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }] as const satisfies Prisma.RuleConditionOrderByWithRelationInput[];

/** A rule with what it tests and does, in the client's order. Sub-conditions hang off their compound (rule_id null). */
export const RULE_INCLUDE = {
  conditions: { where: { parentId: null }, orderBy: BY_POSITION, include: { subConditions: { orderBy: BY_POSITION } } },
  actions: { orderBy: BY_POSITION },
} as const satisfies Prisma.RuleInclude;
export type RuleRow = Prisma.RuleGetPayload<{ include: typeof RULE_INCLUDE }>;

/** A condition as stored: the type, operator and value text are checked again when the rule is compiled. */
export interface StoredCondition {
  conditionType: string;
  operator: string;
  value: string | null;
  subConditions: StoredCondition[];
}

export interface StoredAction {
  actionType: string;
  value: string | null;
}

/** What applying a rule needs. */
export interface RuleDefinition {
  familyId: string;
  effectiveDate: Date | null;
  conditions: StoredCondition[];
  actions: StoredAction[];
}

export function definitionOf(row: RuleRow): RuleDefinition {
  return {
    familyId: row.familyId,
    effectiveDate: row.effectiveDate,
    conditions: row.conditions.map((condition) => ({
      conditionType: condition.conditionType,
      operator: condition.operator,
      value: condition.value,
      subConditions: condition.subConditions.map((sub) => ({ conditionType: sub.conditionType, operator: sub.operator, value: sub.value, subConditions: [] })),
    })),
    actions: row.actions.map((action) => ({ actionType: action.actionType, value: action.value })),
  };
}

/**
 * A stored rule that can no longer be applied (an operator or type this version does not know,
 * a value that is not what its type needs): its run fails with this message, as Sure's
 * UnsupportedOperatorError or UnsupportedConditionError fail its RuleJob.
 */
export class RuleDefinitionError extends Error {
  override readonly name = "RuleDefinitionError";
}
