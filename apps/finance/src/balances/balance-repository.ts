import { AppError, pageWindow, paginationOf, type Balance, type PageQuery } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { dateRange, isoDateOf } from "../ledger/dates";
import { pairOf } from "../ledger/money";
import { toAccountRef } from "../accounts/account-resource";
import { isComplete } from "../ledger/complete-rows";

const BALANCE_INCLUDE = { account: { select: { id: true, name: true, accountType: true } } } as const;
type BalanceRow = Prisma.BalanceGetPayload<{ include: typeof BALANCE_INCLUDE }>;

/** Every part of the day's arithmetic as a money pair; `balance` and `cash_balance` are the day's end. */
export function toBalanceResource(row: BalanceRow): Balance {
  const pair = <N extends string>(name: N, cents: bigint) => pairOf(name, cents, row.currency);
  return {
    id: row.id,
    date: isoDateOf(row.date),
    currency: row.currency,
    flows_factor: row.flowsFactor,
    ...pair("balance", row.endCashCents + row.endNonCashCents),
    ...pair("cash_balance", row.endCashCents),
    ...pair("start_cash_balance", row.startCashCents),
    ...pair("start_non_cash_balance", row.startNonCashCents),
    ...pair("start_balance", row.startCashCents + row.startNonCashCents),
    ...pair("cash_inflows", row.cashInflowsCents),
    ...pair("cash_outflows", row.cashOutflowsCents),
    ...pair("non_cash_inflows", row.nonCashInflowsCents),
    ...pair("non_cash_outflows", row.nonCashOutflowsCents),
    ...pair("net_market_flows", row.netMarketFlowsCents),
    ...pair("cash_adjustments", row.cashAdjustmentsCents),
    ...pair("non_cash_adjustments", row.nonCashAdjustmentsCents),
    ...pair("end_cash_balance", row.endCashCents),
    ...pair("end_non_cash_balance", row.endNonCashCents),
    ...pair("end_balance", row.endCashCents + row.endNonCashCents),
    account: toAccountRef(row.account),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface BalanceQuery extends PageQuery {
  account_id?: string | undefined;
  currency?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export function createBalanceRepository(db: FinanceDb) {
  const visible = { status: { not: "pending_deletion" } } as const;
  return {
    async list(familyId: string, query: BalanceQuery) {
      const where: Prisma.BalanceWhereInput = {
        familyId,
        account: visible,
        ...(query.account_id ? { accountId: query.account_id } : {}),
        ...(query.currency ? { currency: query.currency } : {}),
        ...dateRange(query.start_date, query.end_date),
      };
      const [rows, total] = await db.$transaction([
        db.balance.findMany({
          where,
          include: BALANCE_INCLUDE,
          orderBy: [{ date: "desc" }, { accountId: "asc" }],
          ...pageWindow(query),
        }),
        db.balance.count({ where }),
      ]);
      return { balances: rows.filter((row) => isComplete(row.account)).map(toBalanceResource), pagination: paginationOf(query, total) };
    },

    async get(familyId: string, id: string) {
      const row = await db.balance.findFirst({ where: { id, familyId, account: visible }, include: BALANCE_INCLUDE });
      if (!row || !isComplete(row.account)) throw AppError.notFound("Balance");
      return toBalanceResource(row);
    },
  };
}
export type BalanceRepository = ReturnType<typeof createBalanceRepository>;
