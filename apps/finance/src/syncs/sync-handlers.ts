import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncRepository, SyncRun } from "./sync-repository";
import { toQueuedSyncResource, toSyncRunResource } from "./sync-resource";
import type { SyncSignal } from "./sync-signal";

export function createSyncHandlers(syncs: SyncRepository, signal: SyncSignal) {
  async function present(runs: SyncRun[]) {
    const names = await syncs.namesOf(runs);
    return runs.map((run) => toSyncRunResource(run, names));
  }

  const create: RouteHandler<"syncs.create"> = async ({ ctx }) => {
    const sync = await syncs.queueFamilySync(ctx.actor.familyId);
    signal.poke();
    return toQueuedSyncResource(sync);
  };
  const list: RouteHandler<"syncs.list"> = async ({ ctx, input }) => {
    const { runs, total } = await syncs.list(ctx.actor.familyId, input);
    return { data: await present(runs), meta: paginationOf(input, total) };
  };
  const latest: RouteHandler<"syncs.latest"> = async ({ ctx }) => {
    const run = await syncs.latest(ctx.actor.familyId);
    return { data: run ? (await present([run]))[0]! : null };
  };
  const get: RouteHandler<"syncs.get"> = async ({ ctx, input }) => ({ data: (await present([await syncs.get(ctx.actor.familyId, input.id)]))[0]! });
  return { "syncs.create": create, "syncs.list": list, "syncs.latest": latest, "syncs.get": get };
}
