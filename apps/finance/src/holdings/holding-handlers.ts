import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { HoldingRepository } from "./holding-repository";
import { toHoldingResource } from "./holding-resource";

export function createHoldingHandlers(holdings: HoldingRepository) {
  const list: RouteHandler<"holdings.list"> = async ({ ctx, input }) => {
    const { rows, total } = await holdings.list(ctx.actor.familyId, input);
    return { holdings: rows.map(toHoldingResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"holdings.get"> = async ({ ctx, input }) => toHoldingResource(await holdings.get(ctx.actor.familyId, input.id));
  return { "holdings.list": list, "holdings.get": get };
}
