import type { AccountType } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { dateOf } from "../ledger/dates";

/** An outflow and an inflow that could be the two sides of one transfer. */
export interface MatchCandidate {
  outflow_id: string;
  inflow_id: string;
  inflow_account_type: AccountType;
}

/** The transfer matcher's reads and writes. */
export function createTransferMatchQueries(db: FinanceDb) {
  return {
    /**
     * Outflows and inflows of the same size and currency in two different live accounts of the
     * family, dated at most `windowDays` apart, neither already in a transfer, never a pair the
     * family rejected; closest dates first. Only pairs touching `accountId` dated from `since` when given.
     */
    candidates(familyId: string, scope: { accountId: string | null; since: string | null; windowDays: number }): Promise<MatchCandidate[]> {
      const since = scope.since ? dateOf(scope.since) : null;
      return db.$queryRaw<MatchCandidate[]>`
        SELECT o.id AS outflow_id, i.id AS inflow_id, ai.account_type::text AS inflow_account_type
          FROM entries o
          JOIN entries i ON i.family_id = o.family_id AND i.amount_cents = -o.amount_cents AND i.currency = o.currency
                        AND i.kind = 'transaction' AND i.account_id <> o.account_id
                        AND i.date BETWEEN o.date - ${scope.windowDays}::int AND o.date + ${scope.windowDays}::int
          JOIN accounts ao ON ao.id = o.account_id AND ao.status <> 'pending_deletion'
          JOIN accounts ai ON ai.id = i.account_id AND ai.status <> 'pending_deletion'
         WHERE o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0
           AND (${scope.accountId}::uuid IS NULL OR o.account_id = ${scope.accountId}::uuid OR i.account_id = ${scope.accountId}::uuid)
           AND (${since}::date IS NULL OR o.date >= ${since}::date OR i.date >= ${since}::date)
           AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id IN (o.id, i.id) OR t.outflow_entry_id IN (o.id, i.id))
           AND NOT EXISTS (SELECT 1 FROM rejected_transfers r WHERE r.inflow_entry_id = i.id AND r.outflow_entry_id = o.id)
         ORDER BY abs(i.date - o.date), o.date, o.id, i.id`;
    },

    /**
     * Records a pending transfer of the pair and gives both sides their kinds; false when a
     * concurrent match or a user's transfer took a side since the candidates were read.
     */
    propose(familyId: string, pair: { outflowId: string; inflowId: string; outflowKind: "funds_movement" | "cc_payment" | "loan_payment" }): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const { count } = await tx.transfer.createMany({
          data: [{ familyId, inflowEntryId: pair.inflowId, outflowEntryId: pair.outflowId, status: "pending" }],
          skipDuplicates: true,
        });
        if (count === 0) return false;
        await tx.entry.update({ where: { id: pair.outflowId }, data: { transactionKind: pair.outflowKind } });
        await tx.entry.update({ where: { id: pair.inflowId }, data: { transactionKind: "funds_movement" } });
        return true;
      });
    },
  };
}
export type TransferMatchQueries = ReturnType<typeof createTransferMatchQueries>;
