import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { TransferRepository } from "./transfer-repository";
import { toRejectedTransferResource, toTransferResource } from "./transfer-resource";

export function createTransferHandlers(transfers: TransferRepository, signal: SyncSignal) {
  const list: RouteHandler<"transfers.list"> = async ({ ctx, input }) => {
    const { rows, total } = await transfers.list(ctx.actor.familyId, input);
    return { transfers: rows.map(toTransferResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"transfers.get"> = async ({ ctx, input }) => toTransferResource(await transfers.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"transfers.create"> = async ({ ctx, input }) => {
    const row = await transfers.create(ctx.actor.familyId, input.transfer);
    signal.poke();
    return toTransferResource(row);
  };
  /** Confirm, reject (unlinked and remembered, never proposed again) or change the notes. */
  const update: RouteHandler<"transfers.update"> = async ({ ctx, input }) => {
    const { status, ...changes } = input.transfer;
    if (status === "rejected") {
      await transfers.reject(ctx.actor.familyId, input.id);
      return { message: "Transfer rejected" };
    }
    return toTransferResource(await transfers.update(ctx.actor.familyId, input.id, { ...changes, status }));
  };
  const remove: RouteHandler<"transfers.delete"> = async ({ ctx, input }) => {
    await transfers.delete(ctx.actor.familyId, input.id);
    return { message: "Transfer deleted successfully" };
  };
  const listRejected: RouteHandler<"rejectedTransfers.list"> = async ({ ctx, input }) => {
    const { rows, total } = await transfers.listRejected(ctx.actor.familyId, input);
    return { rejected_transfers: rows.map(toRejectedTransferResource), pagination: paginationOf(input, total) };
  };
  const getRejected: RouteHandler<"rejectedTransfers.get"> = async ({ ctx, input }) =>
    toRejectedTransferResource(await transfers.getRejected(ctx.actor.familyId, input.id));
  return {
    "transfers.list": list,
    "transfers.get": get,
    "transfers.create": create,
    "transfers.update": update,
    "transfers.delete": remove,
    "rejectedTransfers.list": listRejected,
    "rejectedTransfers.get": getRejected,
  };
}
