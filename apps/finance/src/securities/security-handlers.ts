import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { SecurityPriceRepository } from "./security-price-repository";
import { toSecurityPriceResource } from "./security-price-resource";
import type { SecurityRepository } from "./security-repository";
import { toSecurityResource } from "./security-resource";

export function createSecurityHandlers(
  securities: SecurityRepository,
  prices: SecurityPriceRepository,
  signal: SyncSignal,
  familyCurrency: (familyId: string) => Promise<string>,
) {
  const list: RouteHandler<"securities.list"> = async ({ ctx, input }) => {
    const { rows, total } = await securities.list(ctx.actor.familyId, input);
    return { securities: rows.map(toSecurityResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"securities.get"> = async ({ ctx, input }) => toSecurityResource(await securities.get(ctx.actor.familyId, input.id));

  const listPrices: RouteHandler<"securityPrices.list"> = async ({ ctx, input }) => {
    const { rows, total } = await prices.list(ctx.actor.familyId, input);
    return { security_prices: rows.map(toSecurityPriceResource), pagination: paginationOf(input, total) };
  };
  const getPrice: RouteHandler<"securityPrices.get"> = async ({ ctx, input }) => toSecurityPriceResource(await prices.get(ctx.actor.familyId, input.id));
  /** One object or a list; the accounts trading the securities were queued for a sync in the same transaction. */
  const record: RouteHandler<"securityPrices.record"> = async ({ ctx, input }) => {
    const familyId = ctx.actor.familyId;
    const items = input.security_prices ?? (input.security_price ? [input.security_price] : []);
    // The family's currency is a default only: read it when some price names none.
    const fallback = items.some((item) => item.currency === undefined) ? await familyCurrency(familyId) : undefined;
    const rows = await prices.record(familyId, items, fallback);
    signal.poke();
    return { security_prices: rows.map(toSecurityPriceResource) };
  };
  return {
    "securities.list": list,
    "securities.get": get,
    "securityPrices.list": listPrices,
    "securityPrices.get": getPrice,
    "securityPrices.record": record,
  };
}
