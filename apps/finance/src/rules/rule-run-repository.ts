import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { definitionOf, RULE_INCLUDE, RuleDefinitionError } from "./rule-definition";
import { countMatches, withinEvaluationTime } from "./rule-engine";

export const RULE_RUN_INCLUDE = { rule: { select: { id: true, name: true, resourceType: true, active: true } } } as const satisfies Prisma.RuleRunInclude;
export type RuleRunRow = Prisma.RuleRunGetPayload<{ include: typeof RULE_RUN_INCLUDE }>;

/** The family's rule runs as the API shows them; every query scoped by the verified family. */
/** Rule runs one family may have waiting in the shared queue. */
export const MAX_PENDING_RUNS = 10;

export function createRuleRunRepository(db: FinanceDb) {
  return {
    /** Newest first (Sure's RuleRun.recent). */
    async list(familyId: string, query: QueryOf<"ruleRuns.list">) {
      const executedAt = {
        ...(query.start_executed_at ? { gte: query.start_executed_at } : {}),
        ...(query.end_executed_at ? { lte: query.end_executed_at } : {}),
      };
      const where: Prisma.RuleRunWhereInput = {
        familyId,
        ...(query.rule_id ? { ruleId: query.rule_id } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.execution_type ? { executionType: query.execution_type } : {}),
        ...(Object.keys(executedAt).length > 0 ? { executedAt } : {}),
      };
      const [rows, total] = await db.$transaction([
        db.ruleRun.findMany({ where, include: RULE_RUN_INCLUDE, orderBy: [{ executedAt: "desc" }, { id: "desc" }], ...pageWindow(query) }),
        db.ruleRun.count({ where }),
      ]);
      return { rows, total };
    },

    async get(familyId: string, id: string): Promise<RuleRunRow> {
      const row = await db.ruleRun.findFirst({ where: { id, familyId }, include: RULE_RUN_INCLUDE });
      if (!row) throw AppError.notFound("Rule run");
      return row;
    },

    /**
     * Queues a manual run of the family's rule for the background worker. The queued count is
     * what the rule matches now (the run counts again when it executes); a stored rule that no
     * longer compiles is queued anyway and fails there, with the reason.
     */
    async enqueue(familyId: string, ruleId: string, ignoreAttributeLocks: boolean): Promise<RuleRunRow> {
      const rule = await db.rule.findFirst({ where: { id: ruleId, familyId }, include: RULE_INCLUDE });
      if (!rule) throw AppError.notFound("Rule");
      // The queue is shared by every family: applying a rule again while its run waits answers that run,
      // and a family has at most MAX_PENDING_RUNS waiting, so one family's flood cannot hold the others back.
      const waiting = await db.ruleRun.findFirst({ where: { familyId, ruleId, status: "pending", ignoreAttributeLocks }, include: RULE_RUN_INCLUDE });
      if (waiting) return waiting;
      if ((await db.ruleRun.count({ where: { familyId, status: "pending" } })) >= MAX_PENDING_RUNS)
        throw AppError.validation([`At most ${MAX_PENDING_RUNS} rule runs may wait at once: try again when some have finished`]);
      let queued = 0;
      try {
        queued = await withinEvaluationTime(db, (tx) => countMatches(tx, definitionOf(rule)));
      } catch (err) {
        if (!(err instanceof RuleDefinitionError)) throw err;
      }
      return db.ruleRun.create({
        data: {
          familyId,
          ruleId,
          ruleName: rule.name,
          executionType: "manual",
          status: "pending",
          ignoreAttributeLocks,
          transactionsQueued: queued,
        },
        include: RULE_RUN_INCLUDE,
      });
    },
  };
}
export type RuleRunRepository = ReturnType<typeof createRuleRunRepository>;
