import { AppError, RULE_ACTION_REFERENCES, RULE_LIMITS, type RuleActionInput } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { countFamilyRecord, countRules } from "./rule-validation-queries";

/**
 * What the contract cannot see: an action's category, tag, merchant or account must be the
 * family's own (another family's id is as unknown as a made-up one). 422 naming each.
 */
export async function checkActionReferences(tx: FinanceTx, familyId: string, actions: RuleActionInput[]): Promise<void> {
  const errors: string[] = [];
  for (const action of actions) {
    const id = action.value;
    if (!(action.action_type in RULE_ACTION_REFERENCES) || id === null) continue;
    const what = RULE_ACTION_REFERENCES[action.action_type as keyof typeof RULE_ACTION_REFERENCES];
    const found = await countFamilyRecord(tx, familyId, what, id);
    if (found === 0) errors.push(`${action.action_type}: ${what} not found`);
  }
  if (errors.length > 0) throw AppError.validation(errors);
}

/** Every new transaction is checked against the family's active rules: their number stays bounded. */
export async function checkRoomForRule(tx: FinanceTx, familyId: string): Promise<void> {
  if ((await countRules(tx, familyId)) >= RULE_LIMITS.rulesPerFamily) {
    throw AppError.validation([`A family can have at most ${RULE_LIMITS.rulesPerFamily} rules`]);
  }
}
