import { AppError } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import { planImport } from "./merchant-import";
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
  /** Sure's CSV import: the gateway read the file; new names are created, the rest counted as skipped. */
  const importRows: RouteHandler<"merchants.import"> = async ({ ctx, input }) => {
    const names = [...new Set(input.rows.map((row) => row.name.trim()).filter((name) => name !== ""))];
    const existing = await merchants.named(ctx.actor.familyId, names);
    const plan = planImport(input.rows, new Set(existing.map((row) => row.name)));
    const created = await merchants.createMissing(ctx.actor.familyId, plan.create);
    const order = new Map(plan.create.map((merchant, index) => [merchant.name, index]));
    created.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
    // A name another request took meanwhile was left out: skipped too.
    return { imported: created.length, skipped: plan.skipped + plan.create.length - created.length, merchants: created.map(toMerchantResource) };
  };
  const update: RouteHandler<"merchants.update"> = async ({ ctx, input }) => {
    const own = await ownMerchant(ctx.actor.familyId, input.id);
    return toMerchantResource(await merchants.update(own.id, input.merchant));
  };
  const remove: RouteHandler<"merchants.delete"> = async ({ ctx, input }) => {
    const own = await ownMerchant(ctx.actor.familyId, input.id);
    await merchants.delete(own.id);
  };
  return {
    "merchants.list": list,
    "merchants.get": get,
    "merchants.create": create,
    "merchants.import": importRows,
    "merchants.update": update,
    "merchants.delete": remove,
  };
}
