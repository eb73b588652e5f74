import { AppError, pageWindow, paginationOf, type PageQuery } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { ExchangeRate, Prisma } from "../generated/prisma/client";
import { dateOf, dateRange, isoDateOf } from "../ledger/dates";

export function toExchangeRateResource(row: ExchangeRate) {
  return {
    id: row.id,
    from_currency: row.fromCurrency,
    to_currency: row.toCurrency,
    date: isoDateOf(row.date),
    rate: row.rate.toFixed(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface ExchangeRateQuery extends PageQuery {
  from?: string | undefined;
  to?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

/**
 * A family's own rates. Sure keeps one global table (writable only when self-hosted); here each
 * family keeps its own, so no family can change another's conversions.
 */
export function createExchangeRateRepository(db: FinanceDb, onChange: (familyId: string, rate: { from: string; to: string; date: string }) => Promise<void>) {
  return {
    async list(familyId: string, query: ExchangeRateQuery) {
      const where: Prisma.ExchangeRateWhereInput = {
        familyId,
        ...(query.from ? { fromCurrency: query.from } : {}),
        ...(query.to ? { toCurrency: query.to } : {}),
        ...dateRange(query.start_date, query.end_date),
      };
      const [rows, total] = await db.$transaction([
        db.exchangeRate.findMany({ where, orderBy: [{ date: "desc" }, { createdAt: "desc" }], ...pageWindow(query) }),
        db.exchangeRate.count({ where }),
      ]);
      return { exchange_rates: rows.map(toExchangeRateResource), pagination: paginationOf(query, total) };
    },

    async get(familyId: string, id: string) {
      const row = await db.exchangeRate.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Exchange rate");
      return toExchangeRateResource(row);
    },

    /** Upsert by pair and date; `created` tells a new rate from an updated one. Balances in those currencies are recomputed. */
    async upsert(familyId: string, input: { from: string; to: string; date: string; rate: string }) {
      const key = { familyId_fromCurrency_toCurrency_date: { familyId, fromCurrency: input.from, toCurrency: input.to, date: dateOf(input.date) } };
      const existed = (await db.exchangeRate.findUnique({ where: key, select: { id: true } })) !== null;
      const row = await db.exchangeRate.upsert({
        where: key,
        create: { familyId, fromCurrency: input.from, toCurrency: input.to, date: dateOf(input.date), rate: input.rate },
        update: { rate: input.rate },
      });
      await onChange(familyId, input);
      return { created: !existed, rate: toExchangeRateResource(row) };
    },
  };
}
export type ExchangeRateRepository = ReturnType<typeof createExchangeRateRepository>;
