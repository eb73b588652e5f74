import type { RULE_CONDITION_REFERENCES, RuleActionInput, RuleConditionInput } from "@hearth/contracts";
import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import type { FinanceTx } from "../../db";
import { actionRows, conditionRows } from "../../rules/rule-rows";
import { pickTagColor } from "../../tags/tag-colors";

// What the rule publishers (RuleImport's and SureImport's) read and write: the family's rules,
// and the categories, merchants, tags and accounts their conditions and actions name.

/** The kinds of record a rule's condition or action names. */
export type ReferenceKind = (typeof RULE_CONDITION_REFERENCES)[keyof typeof RULE_CONDITION_REFERENCES];
/** The kinds an import makes when a name is missing: never an account. */
export type MadeKind = Exclude<ReferenceKind, "Account">;

/** What a rule holds besides its name, as rules.create stores it. */
export interface RuleContent {
  active: boolean;
  effectiveDate: Date | null;
  conditions: RuleConditionInput[];
  actions: RuleActionInput[];
}

export function countFamilyRules(tx: FinanceTx, familyId: string): Promise<number> {
  return tx.rule.count({ where: { familyId } });
}

/** The family's transaction rules of these names, newest first. */
export function transactionRulesNamed(tx: FinanceTx, familyId: string, names: string[]) {
  return tx.rule.findMany({
    where: { familyId, resourceType: "transaction", name: { in: names } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, name: true },
  });
}

/** A new rule of the family, with the import's id, its conditions and its actions (`id` left out: one Prisma makes). */
export async function createImportedRule(
  tx: FinanceTx,
  { conditions, actions, ...fields }: RuleContent & { id?: string; familyId: string; importId: string; name: string | null; resourceType: string },
): Promise<void> {
  await tx.rule.create({ data: { ...fields, conditions: { create: conditionRows(conditions) }, actions: { create: actionRows(actions) } } });
}

/** Sets the rule's flags and replaces its conditions and actions. */
export async function replaceRuleContent(tx: FinanceTx, id: string, { conditions, actions, ...fields }: RuleContent): Promise<void> {
  // Sub-conditions go with their compound (ON DELETE CASCADE on parent_id).
  await tx.rule.update({
    where: { id },
    data: {
      ...fields,
      conditions: { deleteMany: {}, create: conditionRows(conditions) },
      actions: { deleteMany: {}, create: actionRows(actions) },
    },
  });
}

/** The family's record of `kind` with this id (an account pending deletion is none): its id, else null. */
export async function referenceWithId(tx: FinanceTx, familyId: string, kind: ReferenceKind, id: string): Promise<string | null> {
  const where = { id, familyId };
  const found =
    kind === "Category"
      ? await tx.category.findFirst({ where, select: { id: true } })
      : kind === "Merchant"
        ? await tx.merchant.findFirst({ where, select: { id: true } })
        : kind === "Tag"
          ? await tx.tag.findFirst({ where, select: { id: true } })
          : await tx.account.findFirst({ where: { ...where, status: { not: "pending_deletion" } }, select: { id: true } });
  return found?.id ?? null;
}

/** By exact name, as the unique keys compare; an account as the transaction import finds it (any case, the oldest). */
export async function referenceNamed(tx: FinanceTx, familyId: string, kind: ReferenceKind, name: string): Promise<string | null> {
  const key = { familyId_name: { familyId, name } };
  const found =
    kind === "Category"
      ? await tx.category.findUnique({ where: key, select: { id: true } })
      : kind === "Merchant"
        ? await tx.merchant.findUnique({ where: key, select: { id: true } })
        : kind === "Tag"
          ? await tx.tag.findUnique({ where: key, select: { id: true } })
          : await tx.account.findFirst({
              where: { familyId, name: { equals: name, mode: "insensitive" }, status: { not: "pending_deletion" } },
              orderBy: [{ createdAt: "asc" }, { id: "asc" }],
              select: { id: true },
            });
  return found?.id ?? null;
}

/** Makes the record with the import's id and the defaults the API gives (a category's icon from its name, a tag's colour): its id. */
export async function makeReference(tx: FinanceTx, familyId: string, importId: string, kind: MadeKind, name: string): Promise<string> {
  const select = { id: true } as const;
  if (kind === "Category")
    return (await tx.category.create({ data: { familyId, name, color: DEFAULT_CATEGORY_COLOR, icon: suggestIcon(name), importId }, select })).id;
  if (kind === "Merchant") return (await tx.merchant.create({ data: { familyId, name, importId }, select })).id;
  return (await tx.tag.create({ data: { familyId, name, color: pickTagColor(), importId }, select })).id;
}
