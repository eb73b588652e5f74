import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { TransactionRepository } from "./transaction-repository";
import { toTransactionResource } from "./transaction-resource";

export function createTransactionHandlers(transactions: TransactionRepository, signal: SyncSignal) {
  const list: RouteHandler<"transactions.list"> = async ({ ctx, input }) => {
    const { rows, total } = await transactions.list(ctx.actor.familyId, input);
    return { transactions: rows.map(toTransactionResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"transactions.get"> = async ({ ctx, input }) => toTransactionResource(await transactions.get(ctx.actor.familyId, input.id));
  /** A replay (same external_id and source) changes nothing: no sync to start. */
  const create: RouteHandler<"transactions.create"> = async ({ ctx, input }) => {
    const { created, row } = await transactions.create(ctx.actor.familyId, input.transaction);
    if (created) signal.poke();
    return { status: created ? 201 : 200, body: toTransactionResource(row) };
  };
  const update: RouteHandler<"transactions.update"> = async ({ ctx, input }) => {
    const row = await transactions.update(ctx.actor.familyId, input.id, input.transaction);
    signal.poke();
    return toTransactionResource(row);
  };
  const remove: RouteHandler<"transactions.delete"> = async ({ ctx, input }) => {
    await transactions.delete(ctx.actor.familyId, input.id);
    signal.poke();
    return { message: "Transaction deleted successfully" };
  };
  return { "transactions.list": list, "transactions.get": get, "transactions.create": create, "transactions.update": update, "transactions.delete": remove };
}
