import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { dateOf, dateRange } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";

export type NewExchangeRate = BodyOf<"exchangeRates.upsert">;

/**
 * A family's own rates. Sure keeps one global table (writable only when self-hosted); here each
 * family keeps its own, so no family can change another's conversions.
 */
export function createExchangeRateRepository(db: FinanceDb) {
  return {
    async list(familyId: string, query: QueryOf<"exchangeRates.list">) {
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
      return { rows, total };
    },

    async get(familyId: string, id: string) {
      const row = await db.exchangeRate.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Exchange rate");
      return row;
    },

    /** Upsert by pair and date; `created` tells a new rate from an updated one. */
    async upsert(familyId: string, input: NewExchangeRate) {
      const key = { familyId_fromCurrency_toCurrency_date: { familyId, fromCurrency: input.from, toCurrency: input.to, date: dateOf(input.date) } };
      const existed = (await db.exchangeRate.findUnique({ where: key, select: { id: true } })) !== null;
      const row = await db.exchangeRate.upsert({
        where: key,
        create: { familyId, fromCurrency: input.from, toCurrency: input.to, date: dateOf(input.date), rate: input.rate },
        update: { rate: input.rate },
      });
      return { created: !existed, row };
    },

    /**
     * Queues a sync, from the rate's date, of every account holding entries converted with the
     * pair (their pending syncs merge, so a burst of rates costs one run); how many were queued.
     */
    async queueResyncAfter(familyId: string, rate: Pick<NewExchangeRate, "from" | "to" | "date">): Promise<number> {
      const pair = [rate.from, rate.to];
      // Entries converted with the pair, and holdings valued with it: accounts trading a security priced in the other currency of the pair from that day on.
      const accounts = await db.$queryRaw<{ account_id: string }[]>`
        SELECT e.account_id FROM entries e JOIN accounts a ON a.id = e.account_id
         WHERE e.family_id = ${familyId}::uuid AND e.currency <> a.currency
           AND e.currency = ANY(${pair}) AND a.currency = ANY(${pair}) AND e.date >= ${dateOf(rate.date)}::date
        UNION
        SELECT e.account_id FROM entries e JOIN trades t ON t.entry_id = e.id JOIN accounts a ON a.id = e.account_id
         WHERE e.family_id = ${familyId}::uuid AND a.currency = ANY(${pair})
           AND EXISTS (SELECT 1 FROM security_prices p
                        WHERE p.security_id = t.security_id AND p.family_id = ${familyId}::uuid AND p.currency <> a.currency
                          AND p.currency = ANY(${pair}) AND p.date >= ${dateOf(rate.date)}::date)`;
      if (accounts.length === 0) return 0;
      await db.$transaction(async (tx) => {
        for (const { account_id } of accounts) await requestAccountSync(tx, familyId, account_id, rate.date);
      });
      return accounts.length;
    },
  };
}
export type ExchangeRateRepository = ReturnType<typeof createExchangeRateRepository>;
