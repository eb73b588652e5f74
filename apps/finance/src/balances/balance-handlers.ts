import type { RouteHandler } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { BalanceRepository } from "./balance-repository";
import { balanceSheetOf } from "./balance-sheet";

export function createBalanceHandlers(balances: BalanceRepository, db: FinanceDb, familyCurrency: (familyId: string) => Promise<string>) {
  const list: RouteHandler<"balances.list"> = async ({ ctx, input }) => balances.list(ctx.actor.familyId, input);
  const get: RouteHandler<"balances.get"> = async ({ ctx, input }) => balances.get(ctx.actor.familyId, input.id);
  const sheet: RouteHandler<"balanceSheet.get"> = async ({ ctx }) => balanceSheetOf(db, ctx.actor.familyId, familyCurrency(ctx.actor.familyId));
  return { "balances.list": list, "balances.get": get, "balanceSheet.get": sheet };
}
