import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { RecurringRepository } from "./recurring-repository";
import { toRecurringResource } from "./recurring-resource";

/** Thin procedure bodies: take the verified family and the validated input, call the repository. */
export function createRecurringHandlers(recurring: RecurringRepository) {
  const list: RouteHandler<"recurringTransactions.list"> = async ({ ctx, input }) => {
    const { rows, total } = await recurring.list(ctx.actor.familyId, input);
    return { recurring_transactions: rows.map(toRecurringResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"recurringTransactions.get"> = async ({ ctx, input }) => toRecurringResource(await recurring.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"recurringTransactions.create"> = async ({ ctx, input }) =>
    toRecurringResource(await recurring.create(ctx.actor.familyId, input.recurring_transaction));
  const update: RouteHandler<"recurringTransactions.update"> = async ({ ctx, input }) =>
    toRecurringResource(await recurring.update(ctx.actor.familyId, input.id, input.recurring_transaction));
  /** Sure answers the deletion with a message. */
  const remove: RouteHandler<"recurringTransactions.delete"> = async ({ ctx, input }) => {
    await recurring.delete(ctx.actor.familyId, input.id);
    return { message: "Recurring transaction deleted successfully" };
  };
  return {
    "recurringTransactions.list": list,
    "recurringTransactions.get": get,
    "recurringTransactions.create": create,
    "recurringTransactions.update": update,
    "recurringTransactions.delete": remove,
  };
}
