import type { RouteHandler } from "@hearth/service-kit";
import { toMerchantResource, type MerchantRepository } from "./merchant-repository";

export function createMerchantHandlers(merchants: MerchantRepository) {
  const list: RouteHandler<"merchants.list"> = async ({ ctx }) => (await merchants.list(ctx.actor.familyId)).map(toMerchantResource);
  const get: RouteHandler<"merchants.get"> = async ({ ctx, input }) => toMerchantResource(await merchants.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"merchants.create"> = async ({ ctx, input }) => toMerchantResource(await merchants.create(ctx.actor.familyId, input.merchant));
  const update: RouteHandler<"merchants.update"> = async ({ ctx, input }) =>
    toMerchantResource(await merchants.update(ctx.actor.familyId, input.id, input.merchant));
  const remove: RouteHandler<"merchants.delete"> = async ({ ctx, input }) => merchants.delete(ctx.actor.familyId, input.id);
  return { "merchants.list": list, "merchants.get": get, "merchants.create": create, "merchants.update": update, "merchants.delete": remove };
}
