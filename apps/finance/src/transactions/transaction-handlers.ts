import type { RouteHandler } from "@hearth/service-kit";
import type { TransactionRepository } from "./transaction-repository";
import { toTransactionResource } from "./transaction-resource";

export function createTransactionHandlers(transactions: TransactionRepository) {
  const list: RouteHandler<"transactions.list"> = async ({ ctx, input }) => {
    const { rows, pagination } = await transactions.list(ctx.actor.familyId, input);
    return { transactions: rows.map(toTransactionResource), pagination };
  };
  const get: RouteHandler<"transactions.get"> = async ({ ctx, input }) => toTransactionResource(await transactions.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"transactions.create"> = async ({ ctx, input }) => {
    const { created, row } = await transactions.create(ctx.actor.familyId, input.transaction);
    return { status: created ? 201 : 200, body: toTransactionResource(row) };
  };
  const update: RouteHandler<"transactions.update"> = async ({ ctx, input }) =>
    toTransactionResource(await transactions.update(ctx.actor.familyId, input.id, input.transaction));
  const remove: RouteHandler<"transactions.delete"> = async ({ ctx, input }) => {
    await transactions.delete(ctx.actor.familyId, input.id);
    return { message: "Transaction deleted successfully" };
  };
  return { "transactions.list": list, "transactions.get": get, "transactions.create": create, "transactions.update": update, "transactions.delete": remove };
}
