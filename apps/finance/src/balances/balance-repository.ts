import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { isComplete } from "../ledger/complete-rows";
import { dateRange } from "../ledger/dates";

const BALANCE_INCLUDE = { account: { select: { id: true, name: true, accountType: true } } } as const;
export type BalanceRow = Prisma.BalanceGetPayload<{ include: typeof BALANCE_INCLUDE }>;

/** The daily balances the materializer stored, of accounts not on their way out. */
export function createBalanceRepository(db: FinanceDb) {
  const visible = { status: { not: "pending_deletion" } } as const;
  return {
    async list(familyId: string, query: QueryOf<"balances.list">) {
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
      return { rows: rows.filter((row) => isComplete(row.account)), total };
    },

    async get(familyId: string, id: string): Promise<BalanceRow> {
      const row = await db.balance.findFirst({ where: { id, familyId, account: visible }, include: BALANCE_INCLUDE });
      if (!row || !isComplete(row.account)) throw AppError.notFound("Balance");
      return row;
    },
  };
}
export type BalanceRepository = ReturnType<typeof createBalanceRepository>;
