import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";

/**
 * The family's securities in Sure's sense: those traded in its accounts (holdings only ever come
 * from trades). Another family's security, or one nobody trades, is not there, even when the
 * ticker is the same.
 */
function tradedBy(familyId: string): Prisma.SecurityWhereInput {
  return { familyId, trades: { some: { familyId, entry: { account: { familyId, status: { not: "pending_deletion" } } } } } };
}

export function createSecurityRepository(db: FinanceDb) {
  return {
    /** Tickers and MICs are stored upper case (the resolver upcases them), so an upper-cased filter matches regardless of case. */
    async list(familyId: string, query: QueryOf<"securities.list">) {
      const where: Prisma.SecurityWhereInput = {
        ...tradedBy(familyId),
        ...(query.ticker ? { ticker: query.ticker.toUpperCase() } : {}),
        ...(query.exchange_operating_mic ? { exchangeOperatingMic: query.exchange_operating_mic.toUpperCase() } : {}),
        ...(query.kind ? { kind: query.kind } : {}),
        ...(query.offline !== undefined ? { offline: query.offline } : {}),
      };
      const [rows, total] = await db.$transaction([
        db.security.findMany({ where, orderBy: [{ ticker: "asc" }, { id: "asc" }], ...pageWindow(query) }),
        db.security.count({ where }),
      ]);
      return { rows, total };
    },

    async get(familyId: string, id: string) {
      const row = await db.security.findFirst({ where: { id, ...tradedBy(familyId) } });
      if (!row) throw AppError.notFound("Security");
      return row;
    },
  };
}
export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
