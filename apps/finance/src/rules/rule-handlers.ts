import { pageMetaOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { RuleRepository } from "./rule-repository";
import { toRulePreview, toRuleResource } from "./rule-resource";
import type { RuleRunRepository } from "./rule-run-repository";
import { toRuleRunResource } from "./rule-run-resource";

/** Thin procedure bodies: the verified family and the validated input, on to the repositories. */
export function createRuleHandlers(rules: RuleRepository, runs: RuleRunRepository, worker: { poke(): void }) {
  const list: RouteHandler<"rules.list"> = async ({ ctx, input }) => {
    const { rows, total } = await rules.list(ctx.actor.familyId, input);
    return { data: rows.map(toRuleResource), meta: pageMetaOf(input, total) };
  };
  const get: RouteHandler<"rules.get"> = async ({ ctx, input }) => ({ data: toRuleResource(await rules.get(ctx.actor.familyId, input.id)) });
  const create: RouteHandler<"rules.create"> = async ({ ctx, input }) => ({ data: toRuleResource(await rules.create(ctx.actor.familyId, input.rule)) });
  const update: RouteHandler<"rules.update"> = async ({ ctx, input }) => ({
    data: toRuleResource(await rules.update(ctx.actor.familyId, input.id, input.rule)),
  });
  const remove: RouteHandler<"rules.delete"> = async ({ ctx, input }) => {
    await rules.delete(ctx.actor.familyId, input.id);
    return { message: "Rule deleted successfully" };
  };
  /** 202: the run is queued; GET /api/v1/rule_runs/{id} shows how it went. */
  const apply: RouteHandler<"rules.apply"> = async ({ ctx, input }) => {
    const run = await runs.enqueue(ctx.actor.familyId, input.id, input.ignore_attribute_locks ?? false);
    worker.poke();
    return { data: toRuleRunResource(run) };
  };
  const preview: RouteHandler<"rules.preview"> = async ({ ctx, input }) => {
    const rule = await rules.get(ctx.actor.familyId, input.id);
    return { data: toRulePreview(rule.id, await rules.preview(rule, input.ignore_attribute_locks ?? false)) };
  };
  return {
    "rules.list": list,
    "rules.get": get,
    "rules.create": create,
    "rules.update": update,
    "rules.delete": remove,
    "rules.apply": apply,
    "rules.preview": preview,
  };
}
