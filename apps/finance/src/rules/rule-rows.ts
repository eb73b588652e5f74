import type { RuleActionInput, RuleConditionInput } from "@hearth/contracts";
import type { Prisma } from "../generated/prisma/client";

/** A rule's conditions as they are stored: in the given order, sub-conditions under their compound (no rule of their own). */
export function conditionRows(conditions: RuleConditionInput[]): Prisma.RuleConditionCreateWithoutRuleInput[] {
  return conditions.map((condition, position) => ({
    conditionType: condition.condition_type,
    operator: condition.operator,
    value: condition.value,
    position,
    subConditions: {
      create: condition.sub_conditions.map((sub, subPosition) => ({
        conditionType: sub.condition_type,
        operator: sub.operator,
        value: sub.value,
        position: subPosition,
      })),
    },
  }));
}

/** A rule's actions as they are stored, in the given order. */
export function actionRows(actions: RuleActionInput[]): Prisma.RuleActionCreateWithoutRuleInput[] {
  return actions.map((action, position) => ({ actionType: action.action_type, value: action.value, position }));
}
