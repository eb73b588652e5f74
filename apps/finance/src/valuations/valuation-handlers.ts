import type { RouteHandler } from "@hearth/service-kit";
import type { ValuationRepository } from "./valuation-repository";

export function createValuationHandlers(valuations: ValuationRepository) {
  const list: RouteHandler<"valuations.list"> = async ({ ctx, input }) => valuations.list(ctx.actor.familyId, input);
  const get: RouteHandler<"valuations.get"> = async ({ ctx, input }) => valuations.get(ctx.actor.familyId, input.id);
  /** Sure: 200 instead of 201 only when the client asked with `upsert` (top level first) and the date already had one. */
  const create: RouteHandler<"valuations.create"> = async ({ ctx, input }) => {
    const { upsert: nested, ...valuation } = input.valuation;
    const { existed, valuation: body } = await valuations.upsert(ctx.actor.familyId, valuation);
    const upsert = input.upsert ?? nested ?? false;
    return { status: existed && upsert ? 200 : 201, body };
  };
  const update: RouteHandler<"valuations.update"> = async ({ ctx, input }) => valuations.update(ctx.actor.familyId, input.id, input.valuation);
  return { "valuations.list": list, "valuations.get": get, "valuations.create": create, "valuations.update": update };
}
