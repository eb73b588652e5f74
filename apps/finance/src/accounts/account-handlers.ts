import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import { todayIso, yearsBefore } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import type { SyncSignal } from "../syncs/sync-signal";
import type { AccountRepository } from "./account-repository";
import { toAccountDetail } from "./account-resource";

export function createAccountHandlers(accounts: AccountRepository, signal: SyncSignal, familyCurrency: (familyId: string) => Promise<string>) {
  const list: RouteHandler<"accounts.list"> = async ({ ctx, input }) => {
    const { rows, total } = await accounts.list(ctx.actor.familyId, input);
    return { accounts: rows.map(toAccountDetail), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"accounts.get"> = async ({ ctx, input }) =>
    toAccountDetail(await accounts.get(ctx.actor.familyId, input.id, input.include_disabled ?? false));
  /**
   * In the family currency unless given one. The opening balance (default 0) is the balance before
   * every entry: dated two years back unless given a date (Sure's OpeningBalanceManager default),
   * and moved to the day before any older entry that arrives later.
   */
  const create: RouteHandler<"accounts.create"> = async ({ ctx, input }) => {
    const { currency: given, balance, opening_balance_date, ...account } = input.account;
    const currency = given ?? (await familyCurrency(ctx.actor.familyId));
    const openingCents = balance === undefined ? 0n : centsIn(balance, currency, "Balance");
    const row = await accounts.create(ctx.actor.familyId, {
      ...account,
      currency,
      openingCents,
      openingDate: opening_balance_date ?? yearsBefore(todayIso(), 2),
    });
    signal.poke();
    return toAccountDetail(row);
  };
  const update: RouteHandler<"accounts.update"> = async ({ ctx, input }) => toAccountDetail(await accounts.update(ctx.actor.familyId, input.id, input.account));
  const remove: RouteHandler<"accounts.delete"> = async ({ ctx, input }) => {
    await accounts.scheduleDeletion(ctx.actor.familyId, input.id);
    signal.removalQueued();
    return { message: "Account scheduled for deletion" };
  };
  return { "accounts.list": list, "accounts.get": get, "accounts.create": create, "accounts.update": update, "accounts.delete": remove };
}
