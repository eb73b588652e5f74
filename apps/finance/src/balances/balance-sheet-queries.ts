import type { FinanceDb } from "../db";
import { dateOf, todayIso } from "../ledger/dates";
import type { CurrencyTotal, LatestRate } from "./balance-sheet";

/** What the balance sheet reads: the visible accounts (active and draft) and the family's latest rates. */
export function createBalanceSheetQueries(db: FinanceDb) {
  const visible = (familyId: string) => ({ familyId, status: { in: ["active" as const, "draft" as const] } });
  return {
    /** The accounts' cached balances summed per currency and class. */
    async totals(familyId: string): Promise<CurrencyTotal[]> {
      const groups = await db.account.groupBy({ by: ["currency", "classification"], where: visible(familyId), _sum: { balanceCents: true } });
      return groups.map((group) => ({ currency: group.currency, classification: group.classification, cents: group._sum.balanceCents ?? 0n }));
    },

    /** The latest rate stored by today of each pair between `currencies` and `target`, either way round, in one query. */
    latestRates(familyId: string, currencies: string[], target: string): Promise<LatestRate[]> {
      return db.$queryRaw<LatestRate[]>`
        SELECT DISTINCT ON (from_currency, to_currency) from_currency, to_currency, date, rate::text AS rate
          FROM exchange_rates
         WHERE family_id = ${familyId}::uuid AND date <= ${dateOf(todayIso())}::date AND rate > 0 -- a zero rate (stored before rates were validated) is as if absent
           AND ((from_currency = ANY(${currencies}::text[]) AND to_currency = ${target}) OR (from_currency = ${target} AND to_currency = ANY(${currencies}::text[])))
         ORDER BY from_currency, to_currency, date DESC`;
    },

    /** The accounts in `currencies`, by id. */
    accountsIn(familyId: string, currencies: string[]) {
      return db.account.findMany({
        where: { ...visible(familyId), currency: { in: currencies } },
        select: { id: true, currency: true },
        orderBy: { id: "asc" },
      });
    },
  };
}
export type BalanceSheetQueries = ReturnType<typeof createBalanceSheetQueries>;
