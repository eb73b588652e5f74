import type { RULE_ACTION_REFERENCES } from "@hearth/contracts";
import type { FinanceTx } from "../db";

/** What an action's value may name. */
type ActionReference = (typeof RULE_ACTION_REFERENCES)[keyof typeof RULE_ACTION_REFERENCES];

/** Whether the family has the record an action names (1) or not (0): an account being deleted is not there. */
export function countFamilyRecord(tx: FinanceTx, familyId: string, what: ActionReference, id: string): Promise<number> {
  const where = { id, familyId };
  return what === "Category"
    ? tx.category.count({ where })
    : what === "Tag"
      ? tx.tag.count({ where })
      : what === "Merchant"
        ? tx.merchant.count({ where })
        : tx.account.count({ where: { ...where, status: { not: "pending_deletion" } } });
}

export function countRules(tx: FinanceTx, familyId: string): Promise<number> {
  return tx.rule.count({ where: { familyId } });
}
