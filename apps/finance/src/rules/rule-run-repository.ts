import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { definitionOf, RULE_INCLUDE, RuleDefinitionError } from "./rule-definition";
import { countMatches, withinEvaluationTime } from "./rule-engine-queries";
import { queueRuleRun } from "./rule-run-progress-queries";

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
     * Queues a manual run of the family's rule for the job runner. The queued count is
     * what the rule matches now (the run counts again when it executes); a stored rule that no
     * longer compiles is queued anyway and fails there, with the reason.
     */
    async enqueue(familyId: string, ruleId: string, ignoreAttributeLocks: boolean): Promise<RuleRunRow> {
      const rule = await db.rule.findFirst({ where: { id: ruleId, familyId }, include: RULE_INCLUDE });
      if (!rule) throw AppError.notFound("Rule");
      const waitingRun = (tx: FinanceTx) =>
        tx.ruleRun.findFirst({ where: { familyId, ruleId, status: "pending", ignoreAttributeLocks }, include: RULE_RUN_INCLUDE });
      const waiting = await waitingRun(db);
      if (waiting) return waiting;
      let queued = 0;
      try {
        queued = await withinEvaluationTime(db, (tx) => countMatches(tx, definitionOf(rule)));
      } catch (err) {
        if (!(err instanceof RuleDefinitionError)) throw err;
      }
      // Applying a rule again while its run waits answers that run, and a family has at most
      // MAX_PENDING_RUNS waiting: checked and written under the family's lock, so two applies at
      // once make one run and a burst cannot pass the cap. The run and its job commit together.
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.rule-runs:' || ${familyId}::text, 0))`;
        // The rule stays until this commits (a delete waits, then takes the run with it).
        const [kept] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM rules WHERE id = ${ruleId}::uuid AND family_id = ${familyId}::uuid FOR KEY SHARE`;
        if (!kept) throw AppError.notFound("Rule");
        const raced = await waitingRun(tx);
        if (raced) return raced;
        if ((await tx.ruleRun.count({ where: { familyId, status: "pending" } })) >= MAX_PENDING_RUNS)
          throw AppError.validation([`At most ${MAX_PENDING_RUNS} rule runs may wait at once: try again when some have finished`]);
        const run = await tx.ruleRun.create({
          data: { familyId, ruleId, ruleName: rule.name, executionType: "manual", status: "pending", ignoreAttributeLocks, transactionsQueued: queued },
          include: RULE_RUN_INCLUDE,
        });
        await queueRuleRun(tx, familyId, run.id);
        return run;
      });
    },
  };
}
export type RuleRunRepository = ReturnType<typeof createRuleRunRepository>;
