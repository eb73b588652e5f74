import type { RouteHandler } from "@hearth/service-kit";
import type { AccountRepository } from "./account-repository";
import { toAccountDetail } from "./account-resource";

export function createAccountHandlers(accounts: AccountRepository) {
  const list: RouteHandler<"accounts.list"> = async ({ ctx, input }) => {
    const { rows, pagination } = await accounts.list(ctx.actor.familyId, input);
    return { accounts: rows.map(toAccountDetail), pagination };
  };
  const get: RouteHandler<"accounts.get"> = async ({ ctx, input }) =>
    toAccountDetail(await accounts.get(ctx.actor.familyId, input.id, input.include_disabled ?? false));
  const create: RouteHandler<"accounts.create"> = async ({ ctx, input }) => toAccountDetail(await accounts.create(ctx.actor.familyId, input.account));
  const update: RouteHandler<"accounts.update"> = async ({ ctx, input }) => toAccountDetail(await accounts.update(ctx.actor.familyId, input.id, input.account));
  const remove: RouteHandler<"accounts.delete"> = async ({ ctx, input }) => {
    await accounts.scheduleDeletion(ctx.actor.familyId, input.id);
    return { message: "Account scheduled for deletion" };
  };
  return { "accounts.list": list, "accounts.get": get, "accounts.create": create, "accounts.update": update, "accounts.delete": remove };
}
