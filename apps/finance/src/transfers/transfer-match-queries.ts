import { minorUnitDigits, type AccountType } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { dateOf } from "../ledger/dates";
import { familyCategoryNamed, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "./transfer-categories";
import type { OutflowKind } from "./transfer-kinds";

/** An outflow and an inflow that could be the two sides of one transfer. */
export interface MatchCandidate {
  outflow_id: string;
  inflow_id: string;
  inflow_account_type: AccountType;
}

/** Sure's exchange_rate_tolerance: between currencies the amounts must agree within 10% at the outflow date's rate. */
export const CROSS_CURRENCY_TOLERANCE = 0.1;

/** The transfer matcher's reads and writes. */
export function createTransferMatchQueries(db: FinanceDb) {
  return {
    /**
     * Sure's transfer_match_candidates: an outflow and an inflow in two different active or draft
     * accounts of the family (never a disabled one), neither excluded nor already in a transfer,
     * never a pair the family rejected, dated at most `windowDays` apart; of the same size in one
     * currency, or between currencies within 10% at the family's rate on (or the latest before)
     * the outflow's date. Closest dates first. Only pairs touching `accountId` dated from `since` when given.
     */
    async candidates(familyId: string, scope: { accountId: string | null; since: string | null; windowDays: number }): Promise<MatchCandidate[]> {
      const since = scope.since ? dateOf(scope.since) : null;
      // Minor-unit sizes of the family's currencies, so amounts compare as decimals across currencies.
      const currencies = (await db.account.findMany({ where: { familyId }, distinct: ["currency"], select: { currency: true } })).map((a) => a.currency);
      const digits = currencies.map(minorUnitDigits);
      const low = 1 - CROSS_CURRENCY_TOLERANCE;
      const high = 1 + CROSS_CURRENCY_TOLERANCE;
      return db.$queryRaw<MatchCandidate[]>`
        WITH scale AS (SELECT * FROM unnest(${currencies}::text[], ${digits}::int[]) AS s(currency, digits)),
        pairs AS (
          SELECT o.id AS outflow_id, i.id AS inflow_id, ai.account_type::text AS inflow_account_type, abs(i.date - o.date) AS apart,
                 o.date AS outflow_date, o.currency AS outflow_currency, i.currency AS inflow_currency,
                 o.amount_cents AS outflow_cents, -i.amount_cents AS inflow_cents
            FROM entries o
            JOIN entries i ON i.family_id = o.family_id AND i.kind = 'transaction' AND i.amount_cents < 0 AND NOT i.excluded
                          AND i.account_id <> o.account_id
                          AND i.date BETWEEN o.date - ${scope.windowDays}::int AND o.date + ${scope.windowDays}::int
                          AND (i.currency <> o.currency OR i.amount_cents = -o.amount_cents)
            JOIN accounts ao ON ao.id = o.account_id AND ao.status IN ('active', 'draft')
            JOIN accounts ai ON ai.id = i.account_id AND ai.status IN ('active', 'draft')
           WHERE o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0 AND NOT o.excluded
             AND (${scope.accountId}::uuid IS NULL OR o.account_id = ${scope.accountId}::uuid OR i.account_id = ${scope.accountId}::uuid)
             AND (${since}::date IS NULL OR o.date >= ${since}::date OR i.date >= ${since}::date)
             AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id IN (o.id, i.id) OR t.outflow_entry_id IN (o.id, i.id))
             AND NOT EXISTS (SELECT 1 FROM entries f WHERE f.id IN (o.id, i.id) AND f.fee_of_transfer_id IS NOT NULL)
             AND NOT EXISTS (SELECT 1 FROM rejected_transfers r WHERE r.inflow_entry_id = i.id AND r.outflow_entry_id = o.id))
        SELECT p.outflow_id, p.inflow_id, p.inflow_account_type
          FROM pairs p
          LEFT JOIN LATERAL (
            SELECT x.rate FROM (
              SELECT r.date, r.rate, 0 AS inverted FROM exchange_rates r
               WHERE r.family_id = ${familyId}::uuid AND r.from_currency = p.outflow_currency AND r.to_currency = p.inflow_currency AND r.date <= p.outflow_date
              UNION ALL
              SELECT r.date, 1 / r.rate, 1 FROM exchange_rates r
               WHERE r.family_id = ${familyId}::uuid AND r.from_currency = p.inflow_currency AND r.to_currency = p.outflow_currency AND r.date <= p.outflow_date
            ) x ORDER BY x.date DESC, x.inverted LIMIT 1) rate ON p.outflow_currency <> p.inflow_currency
          LEFT JOIN scale so ON so.currency = p.outflow_currency
          LEFT JOIN scale si ON si.currency = p.inflow_currency
         WHERE p.outflow_currency = p.inflow_currency
            OR (rate.rate > 0 AND so.digits IS NOT NULL AND si.digits IS NOT NULL
                AND (p.inflow_cents::numeric / 10 ^ si.digits) / (p.outflow_cents::numeric / 10 ^ so.digits * rate.rate) BETWEEN ${low} AND ${high})
         ORDER BY p.apart, p.outflow_id, p.inflow_id`;
    },

    /**
     * Records a pending transfer of the pair and gives both sides their kinds (a contribution to an
     * investment account without a category gets Investment Contributions, as Sure's
     * auto_match_transfers! does); false when a concurrent match or a user's transfer took a side
     * since the candidates were read.
     */
    propose(familyId: string, pair: { outflowId: string; inflowId: string; outflowKind: OutflowKind }): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const { count } = await tx.transfer.createMany({
          data: [{ familyId, inflowEntryId: pair.inflowId, outflowEntryId: pair.outflowId, status: "pending" }],
          skipDuplicates: true,
        });
        if (count === 0) return false;
        await tx.entry.update({ where: { id: pair.outflowId }, data: { transactionKind: pair.outflowKind } });
        await tx.entry.update({ where: { id: pair.inflowId }, data: { transactionKind: "funds_movement" } });
        if (pair.outflowKind === "investment_contribution") {
          const category = await familyCategoryNamed(tx, familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY);
          await tx.entry.updateMany({ where: { id: pair.outflowId, categoryId: null }, data: { categoryId: category } });
        }
        return true;
      });
    },
  };
}
export type TransferMatchQueries = ReturnType<typeof createTransferMatchQueries>;
