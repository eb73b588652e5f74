import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, dateRange } from "../ledger/dates";

const HOLDING_INCLUDE = {
  account: { select: { id: true, name: true, accountType: true, status: true } },
  security: { select: { id: true, ticker: true, name: true } },
} as const satisfies Prisma.HoldingInclude;
export type HoldingRow = Prisma.HoldingGetPayload<{ include: typeof HOLDING_INCLUDE }>;

export function createHoldingRepository(db: FinanceDb) {
  return {
    /** Oldest first, as Sure's chronological order (then by security, so pages are stable). */
    async list(familyId: string, query: QueryOf<"holdings.list">) {
      const filters: Prisma.HoldingWhereInput[] = [];
      if (query.account_id) filters.push({ accountId: query.account_id });
      if (query.account_ids) filters.push({ accountId: { in: query.account_ids } });
      // An exact date and a range together: both apply.
      if (query.date) filters.push({ date: dateOf(query.date) });
      filters.push(dateRange(query.start_date, query.end_date));
      const where: Prisma.HoldingWhereInput = {
        familyId,
        account: { status: { not: "pending_deletion" } },
        AND: filters,
        ...(query.security_id ? { securityId: query.security_id } : {}),
      };
      const [rows, total] = await db.$transaction([
        db.holding.findMany({ where, include: HOLDING_INCLUDE, orderBy: [{ date: "asc" }, { securityId: "asc" }, { accountId: "asc" }], ...pageWindow(query) }),
        db.holding.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.account, row.security)), total };
    },

    async get(familyId: string, id: string): Promise<HoldingRow> {
      const row = await db.holding.findFirst({ where: { id, familyId, account: { status: { not: "pending_deletion" } } }, include: HOLDING_INCLUDE });
      if (!row || !isComplete(row.account, row.security)) throw AppError.notFound("Holding");
      return row;
    },
  };
}
export type HoldingRepository = ReturnType<typeof createHoldingRepository>;
