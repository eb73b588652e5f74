import { minorUnitDigits, type AccountType } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
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

/**
 * Pairs across currencies (Sure's second candidate query): the inflow within 10% of the outflow
 * at the family's rate on, or the latest before, the outflow's date (either way round), amounts
 * compared as decimals (minor-unit sizes of the family's currencies passed in).
 */
function crossCurrencyCandidates(db: FinanceDb, familyId: string, currencies: string[], inflowJoin: Prisma.Sql, pairable: Prisma.Sql) {
  const digits = currencies.map(minorUnitDigits);
  return db.$queryRaw<(MatchCandidate & { apart: number })[]>`
      WITH scale AS (SELECT * FROM unnest(${currencies}::text[], ${digits}::int[]) AS s(currency, digits))
      SELECT o.id AS outflow_id, i.id AS inflow_id, ai.account_type::text AS inflow_account_type, abs(i.date - o.date) AS apart
        FROM entries o
        JOIN entries i ON ${inflowJoin} AND i.currency <> o.currency AND i.amount_cents < 0
        JOIN scale so ON so.currency = o.currency
        JOIN scale si ON si.currency = i.currency
        JOIN LATERAL (
          SELECT x.rate FROM (
            SELECT r.date, r.rate, 0 AS inverted FROM exchange_rates r
             WHERE r.family_id = ${familyId}::uuid AND r.from_currency = o.currency AND r.to_currency = i.currency AND r.date <= o.date
            UNION ALL
            SELECT r.date, 1 / r.rate, 1 FROM exchange_rates r
             WHERE r.family_id = ${familyId}::uuid AND r.from_currency = i.currency AND r.to_currency = o.currency AND r.date <= o.date
          ) x ORDER BY x.date DESC, x.inverted LIMIT 1) rate ON rate.rate > 0
        ${pairable}
         AND (-i.amount_cents::numeric / 10 ^ si.digits) / (o.amount_cents::numeric / 10 ^ so.digits * rate.rate)
             BETWEEN ${1 - CROSS_CURRENCY_TOLERANCE} AND ${1 + CROSS_CURRENCY_TOLERANCE}`;
}

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
      // Shared conditions: two live accounts, neither side excluded, in a transfer, a fee, or a rejected pair.
      const pairable = Prisma.sql`
            JOIN accounts ao ON ao.id = o.account_id AND ao.status IN ('active', 'draft')
            JOIN accounts ai ON ai.id = i.account_id AND ai.status IN ('active', 'draft')
           WHERE o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0 AND NOT o.excluded
             AND (${scope.accountId}::uuid IS NULL OR o.account_id = ${scope.accountId}::uuid OR i.account_id = ${scope.accountId}::uuid)
             AND (${since}::date IS NULL OR o.date >= ${since}::date OR i.date >= ${since}::date)
             AND o.fee_of_transfer_id IS NULL AND i.fee_of_transfer_id IS NULL
             AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id IN (o.id, i.id) OR t.outflow_entry_id IN (o.id, i.id))
             AND NOT EXISTS (SELECT 1 FROM rejected_transfers r WHERE r.inflow_entry_id = i.id AND r.outflow_entry_id = o.id)`;
      const inflowJoin = Prisma.sql`i.family_id = o.family_id AND i.kind = 'transaction' AND NOT i.excluded AND i.account_id <> o.account_id
                          AND i.date BETWEEN o.date - ${scope.windowDays}::int AND o.date + ${scope.windowDays}::int`;
      // One currency: the same size, found through the (family, currency, amount, date) index.
      const same = await db.$queryRaw<(MatchCandidate & { apart: number })[]>`
        SELECT o.id AS outflow_id, i.id AS inflow_id, ai.account_type::text AS inflow_account_type, abs(i.date - o.date) AS apart
          FROM entries o
          JOIN entries i ON ${inflowJoin} AND i.currency = o.currency AND i.amount_cents = -o.amount_cents
          ${pairable}`;
      const currencies = (await db.account.findMany({ where: { familyId }, distinct: ["currency"], select: { currency: true } })).map((a) => a.currency);
      const cross = currencies.length < 2 ? [] : await crossCurrencyCandidates(db, familyId, currencies, inflowJoin, pairable);
      return [...same, ...cross]
        .sort((a, b) => a.apart - b.apart || a.outflow_id.localeCompare(b.outflow_id) || a.inflow_id.localeCompare(b.inflow_id))
        .map(({ outflow_id, inflow_id, inflow_account_type }) => ({ outflow_id, inflow_id, inflow_account_type }));
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
