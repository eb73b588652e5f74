import { AppError, pageWindow, type NewRuleInput, type QueryOf, type RuleChangesInput } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { definitionOf, RULE_INCLUDE, RuleDefinitionError, type RuleRow } from "./rule-definition";
import { previewRule, withinEvaluationTime } from "./rule-engine-queries";
import { actionRows, conditionRows } from "./rule-rows";
import { checkActionReferences, checkRoomForRule } from "./rule-validation";

/** Every query is scoped by the family of the verified caller. */
export function createRuleRepository(db: FinanceDb) {
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<RuleRow> {
    const row = await tx.rule.findFirst({ where: { id, familyId }, include: RULE_INCLUDE });
    if (!row) throw AppError.notFound("Rule");
    return row;
  }

  return {
    /** Oldest first, as Sure lists them. */
    async list(familyId: string, query: QueryOf<"rules.list">) {
      const where: Prisma.RuleWhereInput = {
        familyId,
        ...(query.resource_type !== undefined ? { resourceType: query.resource_type } : {}),
        ...(query.active !== undefined ? { active: query.active } : {}),
      };
      const [rows, total] = await db.$transaction([
        db.rule.findMany({ where, include: RULE_INCLUDE, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageWindow(query) }),
        db.rule.count({ where }),
      ]);
      return { rows, total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    create(familyId: string, input: NewRuleInput) {
      return db.$transaction(async (tx) => {
        // One create at a time per family, so parallel ones cannot pass the count together.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`rules:${familyId}`}, 0))`;
        await checkRoomForRule(tx, familyId);
        await checkActionReferences(tx, familyId, input.actions);
        const rule = await tx.rule.create({
          data: {
            familyId,
            name: input.name ?? null,
            resourceType: input.resource_type ?? "transaction",
            active: input.active ?? true,
            effectiveDate: input.effective_date ? dateOf(input.effective_date) : null,
            conditions: { create: conditionRows(input.conditions ?? []) },
            actions: { create: actionRows(input.actions) },
          },
        });
        return find(tx, familyId, rule.id);
      });
    },

    /** Conditions or actions, when given, replace the rule's. */
    update(familyId: string, id: string, changes: RuleChangesInput) {
      return db.$transaction(async (tx) => {
        const { count } = await tx.rule.updateMany({
          where: { id, familyId },
          data: {
            ...(changes.name !== undefined ? { name: changes.name } : {}),
            ...(changes.resource_type !== undefined ? { resourceType: changes.resource_type } : {}),
            ...(changes.active !== undefined ? { active: changes.active } : {}),
            ...(changes.effective_date !== undefined ? { effectiveDate: changes.effective_date ? dateOf(changes.effective_date) : null } : {}),
            // Sure's conditions and actions touch their rule.
            updatedAt: new Date(),
          },
        });
        if (count === 0) throw AppError.notFound("Rule");
        if (changes.actions !== undefined) {
          await checkActionReferences(tx, familyId, changes.actions);
          await tx.ruleAction.deleteMany({ where: { ruleId: id } });
          await tx.ruleAction.createMany({ data: actionRows(changes.actions).map((action) => ({ ...action, ruleId: id })) });
        }
        if (changes.conditions !== undefined) {
          // Sub-conditions go with their compound (ON DELETE CASCADE on parent_id).
          await tx.ruleCondition.deleteMany({ where: { ruleId: id } });
          for (const condition of conditionRows(changes.conditions)) await tx.ruleCondition.create({ data: { ...condition, rule: { connect: { id } } } });
        }
        return find(tx, familyId, id);
      });
    },

    /** What applying the rule would do (read only); a stored rule that cannot run is a 422 saying why. */
    async preview(rule: RuleRow, ignoreLocks: boolean) {
      try {
        return await withinEvaluationTime(db, (tx) => previewRule(tx, definitionOf(rule), { ignoreLocks }));
      } catch (err) {
        if (err instanceof RuleDefinitionError) throw AppError.validation([err.message]);
        throw err;
      }
    },

    /** Its runs go with it. */
    async delete(familyId: string, id: string) {
      const { count } = await db.rule.deleteMany({ where: { id, familyId } });
      if (count === 0) throw AppError.notFound("Rule");
    },
  };
}
export type RuleRepository = ReturnType<typeof createRuleRepository>;
