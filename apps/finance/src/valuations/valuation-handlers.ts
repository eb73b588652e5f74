import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { ValuationRepository } from "./valuation-repository";
import { toValuationResource } from "./valuation-resource";

export function createValuationHandlers(valuations: ValuationRepository, signal: SyncSignal) {
  const list: RouteHandler<"valuations.list"> = async ({ ctx, input }) => {
    const { rows, total } = await valuations.list(ctx.actor.familyId, input);
    return { valuations: rows.map(toValuationResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"valuations.get"> = async ({ ctx, input }) => toValuationResource(await valuations.get(ctx.actor.familyId, input.id));
  /** Sure: 200 instead of 201 only when the client asked with `upsert` (top level first) and the date already had one. */
  const create: RouteHandler<"valuations.create"> = async ({ ctx, input }) => {
    const { upsert: nested, ...valuation } = input.valuation;
    const { existed, row } = await valuations.upsert(ctx.actor.familyId, valuation);
    signal.poke();
    const upsert = input.upsert ?? nested ?? false;
    return { status: existed && upsert ? 200 : 201, body: toValuationResource(row) };
  };
  const update: RouteHandler<"valuations.update"> = async ({ ctx, input }) => {
    const row = await valuations.update(ctx.actor.familyId, input.id, input.valuation);
    signal.poke();
    return toValuationResource(row);
  };
  return { "valuations.list": list, "valuations.get": get, "valuations.create": create, "valuations.update": update };
}
