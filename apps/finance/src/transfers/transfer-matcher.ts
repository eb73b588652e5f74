import type { FinanceDb } from "../db";
import type { AccountType } from "@hearth/contracts";
import { dateOf } from "../ledger/dates";
import { outflowKindOf } from "./transfer-kinds";

/** How far apart (in days) the two sides of a transfer may be dated, as Sure matches them. */
export const MATCH_WINDOW_DAYS = 4;

interface Candidate {
  outflow_id: string;
  inflow_id: string;
  inflow_account_type: AccountType;
}

/**
 * Proposes pending transfers: an outflow and an inflow of the same size and currency in two
 * different accounts of the family, dated at most four days apart, neither already in a
 * transfer, and never a pair the family rejected. Closest dates pair first; each transaction
 * joins one transfer at most. Limited to pairs touching `accountId` dated from `since` when given.
 */
export async function matchTransfers(db: FinanceDb, familyId: string, scope: { accountId?: string; since?: string | null } = {}): Promise<number> {
  const accountId = scope.accountId ?? null;
  const since = scope.since ? dateOf(scope.since) : null;
  const candidates = await db.$queryRaw<Candidate[]>`
    SELECT o.id AS outflow_id, i.id AS inflow_id, ai.account_type::text AS inflow_account_type
      FROM entries o
      JOIN entries i ON i.family_id = o.family_id AND i.amount_cents = -o.amount_cents AND i.currency = o.currency
                    AND i.kind = 'transaction' AND i.account_id <> o.account_id
                    AND i.date BETWEEN o.date - ${MATCH_WINDOW_DAYS}::int AND o.date + ${MATCH_WINDOW_DAYS}::int
      JOIN accounts ao ON ao.id = o.account_id AND ao.status <> 'pending_deletion'
      JOIN accounts ai ON ai.id = i.account_id AND ai.status <> 'pending_deletion'
     WHERE o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0
       AND (${accountId}::uuid IS NULL OR o.account_id = ${accountId}::uuid OR i.account_id = ${accountId}::uuid)
       AND (${since}::date IS NULL OR o.date >= ${since}::date OR i.date >= ${since}::date)
       AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id IN (o.id, i.id) OR t.outflow_entry_id IN (o.id, i.id))
       AND NOT EXISTS (SELECT 1 FROM rejected_transfers r WHERE r.inflow_entry_id = i.id AND r.outflow_entry_id = o.id)
     ORDER BY abs(i.date - o.date), o.date, o.id, i.id`;
  const used = new Set<string>();
  let proposed = 0;
  for (const pair of candidates) {
    if (used.has(pair.outflow_id) || used.has(pair.inflow_id)) continue;
    used.add(pair.outflow_id);
    used.add(pair.inflow_id);
    // A concurrent match or a user's transfer may have taken a side since the query: skip it then.
    const created = await db.$transaction(async (tx) => {
      const { count } = await tx.transfer.createMany({
        data: [{ familyId, inflowEntryId: pair.inflow_id, outflowEntryId: pair.outflow_id, status: "pending" }],
        skipDuplicates: true,
      });
      if (count === 0) return false;
      await tx.entry.update({ where: { id: pair.outflow_id }, data: { transactionKind: outflowKindOf(pair.inflow_account_type) } });
      await tx.entry.update({ where: { id: pair.inflow_id }, data: { transactionKind: "funds_movement" } });
      return true;
    });
    if (created) proposed++;
  }
  return proposed;
}
