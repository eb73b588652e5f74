import { pageMetaOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { RuleRunRepository } from "./rule-run-repository";
import { toRuleRunResource } from "./rule-run-resource";

export function createRuleRunHandlers(runs: RuleRunRepository) {
  const list: RouteHandler<"ruleRuns.list"> = async ({ ctx, input }) => {
    const { rows, total } = await runs.list(ctx.actor.familyId, input);
    return { data: rows.map(toRuleRunResource), meta: pageMetaOf(input, total) };
  };
  const get: RouteHandler<"ruleRuns.get"> = async ({ ctx, input }) => ({ data: toRuleRunResource(await runs.get(ctx.actor.familyId, input.id)) });
  return { "ruleRuns.list": list, "ruleRuns.get": get };
}
