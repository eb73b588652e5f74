import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { SyncSignal } from "../syncs/sync-signal";
import type { TransactionRepository } from "../transactions/transaction-repository";
import { toTransactionResource } from "../transactions/transaction-resource";
import type { TransferRepository } from "../transfers/transfer-repository";
import { toTransferResource } from "../transfers/transfer-resource";
import type { NewTrade, TradeRepository } from "./trade-repository";
import { toTradeResource } from "./trade-resource";

/**
 * Sure's Trade::CreateForm: buys, sells, dividends and interest are trades; a deposit or
 * withdrawal is a transfer when it names the other account, else a plain transaction
 * ("Deposit to <account>", "Withdrawal from <account>").
 */
async function createCashMovement(
  input: NewTrade & { type: "deposit" | "withdrawal" },
  familyId: string,
  trades: TradeRepository,
  transactions: TransactionRepository,
  transfers: TransferRepository,
) {
  const account = await trades.tradingAccount(familyId, input.account_id);
  const amount = input.amount!;
  if (input.transfer_account_id !== undefined) {
    const [from, to] = input.type === "withdrawal" ? [account.id, input.transfer_account_id] : [input.transfer_account_id, account.id];
    return toTransferResource(await transfers.create(familyId, { from_account_id: from, to_account_id: to, amount, date: input.date }));
  }
  const deposit = input.type === "deposit";
  const { row } = await transactions.create(familyId, {
    account_id: account.id,
    date: input.date,
    amount,
    nature: deposit ? "inflow" : "outflow",
    name: deposit ? `Deposit to ${account.name}` : `Withdrawal from ${account.name}`,
    ...(input.currency !== undefined ? { currency: input.currency } : {}),
    ...(input.category_id !== undefined ? { category_id: input.category_id } : {}),
  });
  return toTransactionResource(row);
}

export function createTradeHandlers(trades: TradeRepository, transactions: TransactionRepository, transfers: TransferRepository, signal: SyncSignal) {
  const list: RouteHandler<"trades.list"> = async ({ ctx, input }) => {
    const { rows, total } = await trades.list(ctx.actor.familyId, input);
    return { trades: rows.map(toTradeResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"trades.get"> = async ({ ctx, input }) => toTradeResource(await trades.get(ctx.actor.familyId, input.id));
  const create: RouteHandler<"trades.create"> = async ({ ctx, input }) => {
    const trade = input.trade;
    const body =
      trade.type === "deposit" || trade.type === "withdrawal"
        ? await createCashMovement({ ...trade, type: trade.type }, ctx.actor.familyId, trades, transactions, transfers)
        : toTradeResource(await trades.create(ctx.actor.familyId, { ...trade, type: trade.type }));
    signal.poke();
    return { status: 201 as const, body };
  };
  const update: RouteHandler<"trades.update"> = async ({ ctx, input }) => {
    const row = await trades.update(ctx.actor.familyId, input.id, input.trade);
    signal.poke();
    return toTradeResource(row);
  };
  const remove: RouteHandler<"trades.delete"> = async ({ ctx, input }) => {
    await trades.delete(ctx.actor.familyId, input.id);
    signal.poke();
    return { message: "Trade deleted successfully" };
  };
  return { "trades.list": list, "trades.get": get, "trades.create": create, "trades.update": update, "trades.delete": remove };
}
