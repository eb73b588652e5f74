import { AppError } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { MerchantRepository } from "./merchant-repository";
import { toMerchantResource } from "./merchant-resource";

const PROVIDER_MERCHANT = AppError.validation(["Merchants from a provider cannot be changed or deleted"]);

export function createMerchantHandlers(merchants: MerchantRepository) {
  /** A family merchant of the family: provider merchants come from connections and stay as they are. */
  async function ownMerchant(familyId: string, id: string) {
    const row = await merchants.get(familyId, id);
    if (row.kind !== "FamilyMerchant") throw PROVIDER_MERCHANT;
    return row;
  }

  const list: RouteHandler<"merchants.list"> = async ({ ctx }) => (await merchants.list(ctx.actor.familyId)).map(toMerchantResource);
  const get: RouteHandler<"merchants.get"> = async ({ ctx, input }) => toMerchantResource(await merchants.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"merchants.create"> = async ({ ctx, input }) => toMerchantResource(await merchants.create(ctx.actor.familyId, input.merchant));
  const update: RouteHandler<"merchants.update"> = async ({ ctx, input }) => {
    const own = await ownMerchant(ctx.actor.familyId, input.id);
    return toMerchantResource(await merchants.update(ctx.actor.familyId, own.id, input.merchant));
  };
  const remove: RouteHandler<"merchants.delete"> = async ({ ctx, input }) => {
    const own = await ownMerchant(ctx.actor.familyId, input.id);
    await merchants.delete(ctx.actor.familyId, own.id);
  };
  return { "merchants.list": list, "merchants.get": get, "merchants.create": create, "merchants.update": update, "merchants.delete": remove };
}
