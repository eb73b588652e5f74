import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncRepository, SyncRow } from "./sync-repository";
import { toQueuedSyncResource, toSyncResource } from "./sync-resource";
import type { SyncSignal } from "./sync-signal";

export function createSyncHandlers(syncs: SyncRepository, signal: SyncSignal) {
  async function present(rows: SyncRow[]) {
    const names = await syncs.namesOf(rows);
    return rows.map((row) => toSyncResource(row, names));
  }

  const create: RouteHandler<"syncs.create"> = async ({ ctx }) => {
    const sync = await syncs.queueFamilySync(ctx.actor.familyId);
    signal.poke();
    return toQueuedSyncResource(sync);
  };
  const list: RouteHandler<"syncs.list"> = async ({ ctx, input }) => {
    const { rows, total } = await syncs.list(ctx.actor.familyId, input);
    return { data: await present(rows), meta: paginationOf(input, total) };
  };
  const latest: RouteHandler<"syncs.latest"> = async ({ ctx }) => {
    const row = await syncs.latest(ctx.actor.familyId);
    return { data: row ? (await present([row]))[0]! : null };
  };
  const get: RouteHandler<"syncs.get"> = async ({ ctx, input }) => ({ data: (await present([await syncs.get(ctx.actor.familyId, input.id)]))[0]! });
  return { "syncs.create": create, "syncs.list": list, "syncs.latest": latest, "syncs.get": get };
}
