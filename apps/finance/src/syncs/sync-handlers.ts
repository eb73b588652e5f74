import type { RouteHandler } from "@hearth/service-kit";
import type { ExchangeRateRepository } from "../exchange-rates/exchange-rate-repository";
import type { SyncRepository } from "./sync-repository";

export function createSyncHandlers(syncs: SyncRepository, rates: ExchangeRateRepository) {
  const create: RouteHandler<"syncs.create"> = async ({ ctx }) => syncs.queueFamilySync(ctx.actor.familyId);
  const list: RouteHandler<"syncs.list"> = async ({ ctx, input }) => syncs.list(ctx.actor.familyId, input);
  const latest: RouteHandler<"syncs.latest"> = async ({ ctx }) => syncs.latest(ctx.actor.familyId);
  const get: RouteHandler<"syncs.get"> = async ({ ctx, input }) => syncs.get(ctx.actor.familyId, input.id);
  const listRates: RouteHandler<"exchangeRates.list"> = async ({ ctx, input }) => rates.list(ctx.actor.familyId, input);
  const getRate: RouteHandler<"exchangeRates.get"> = async ({ ctx, input }) => rates.get(ctx.actor.familyId, input.id);
  const upsertRate: RouteHandler<"exchangeRates.upsert"> = async ({ ctx, input }) => {
    const { created, rate } = await rates.upsert(ctx.actor.familyId, input);
    return { status: created ? 201 : 200, body: rate };
  };
  return {
    "syncs.create": create,
    "syncs.list": list,
    "syncs.latest": latest,
    "syncs.get": get,
    "exchangeRates.list": listRates,
    "exchangeRates.get": getRate,
    "exchangeRates.upsert": upsertRate,
  };
}
