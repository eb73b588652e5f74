import type { RouteHandler } from "@hearth/service-kit";
import type { TransferRepository } from "./transfer-repository";

export function createTransferHandlers(transfers: TransferRepository) {
  const list: RouteHandler<"transfers.list"> = async ({ ctx, input }) => transfers.list(ctx.actor.familyId, input);
  const get: RouteHandler<"transfers.get"> = async ({ ctx, input }) => transfers.get(ctx.actor.familyId, input.id);
  const create: RouteHandler<"transfers.create"> = async ({ ctx, input }) => transfers.create(ctx.actor.familyId, input.transfer);
  const update: RouteHandler<"transfers.update"> = async ({ ctx, input }) => transfers.update(ctx.actor.familyId, input.id, input.transfer);
  const remove: RouteHandler<"transfers.delete"> = async ({ ctx, input }) => {
    await transfers.delete(ctx.actor.familyId, input.id);
    return { message: "Transfer deleted successfully" };
  };
  const listRejected: RouteHandler<"rejectedTransfers.list"> = async ({ ctx, input }) => transfers.listRejected(ctx.actor.familyId, input);
  const getRejected: RouteHandler<"rejectedTransfers.get"> = async ({ ctx, input }) => transfers.getRejected(ctx.actor.familyId, input.id);
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
