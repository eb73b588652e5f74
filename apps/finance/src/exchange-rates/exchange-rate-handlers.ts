import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { ExchangeRateRepository } from "./exchange-rate-repository";
import { toExchangeRateResource } from "./exchange-rate-resource";

export function createExchangeRateHandlers(rates: ExchangeRateRepository, signal: SyncSignal) {
  const list: RouteHandler<"exchangeRates.list"> = async ({ ctx, input }) => {
    const { rows, total } = await rates.list(ctx.actor.familyId, input);
    return { exchange_rates: rows.map(toExchangeRateResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"exchangeRates.get"> = async ({ ctx, input }) => toExchangeRateResource(await rates.get(ctx.actor.familyId, input.id));
  /** Sure: 201 for a new pair and date, 200 for a changed rate. Balances converted with it are recomputed from its date. */
  const upsert: RouteHandler<"exchangeRates.upsert"> = async ({ ctx, input }) => {
    const { created, row } = await rates.upsert(ctx.actor.familyId, input);
    if ((await rates.queueResyncAfter(ctx.actor.familyId, input)) > 0) signal.poke();
    return { status: created ? 201 : 200, body: toExchangeRateResource(row) };
  };
  return { "exchangeRates.list": list, "exchangeRates.get": get, "exchangeRates.upsert": upsert };
}
