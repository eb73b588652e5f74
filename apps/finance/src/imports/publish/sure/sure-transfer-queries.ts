import type { AccountType } from "@hearth/contracts";
import type { FinanceTx } from "../../../db";
import type { SureTransferValues } from "../../ndjson";
import { column } from "./sure-publish-context";

/** A transfer's (or rejected transfer's) id and its two entries. */
export interface TransferPair {
  id: string;
  inflow: string;
  outflow: string;
}

/** Each pair's outflow, the types of its two accounts, and whether the outflow has no category. */
export function transferSides(tx: FinanceTx, pairs: readonly TransferPair[]) {
  return tx.$queryRaw<{ outflow: string; inflow_type: AccountType; outflow_type: AccountType; uncategorized: boolean }[]>`
    SELECT p.outflow::text AS outflow, ia.account_type::text AS inflow_type, oa.account_type::text AS outflow_type, o.category_id IS NULL AS uncategorized
      FROM unnest(${column(pairs, (p) => p.inflow)}::uuid[], ${column(pairs, (p) => p.outflow)}::uuid[]) AS p(inflow, outflow)
      JOIN entries i ON i.id = p.inflow JOIN accounts ia ON ia.id = i.account_id
      JOIN entries o ON o.id = p.outflow JOIN accounts oa ON oa.id = o.account_id`;
}

/** Sets the pairs' inflows a movement of funds. */
export async function markInflowsFundsMovement(tx: FinanceTx, pairs: readonly TransferPair[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE entries e SET transaction_kind = 'funds_movement', updated_at = now()
      FROM unnest(${column(pairs, (p) => p.inflow)}::uuid[]) AS p(inflow) WHERE e.id = p.inflow`;
}

/** Sets each outflow's kind; an uncategorised contribution goes to `contributionCategory`. */
export async function setOutflowKinds(tx: FinanceTx, kinds: readonly { outflow: string; kind: string }[], contributionCategory: string | null): Promise<void> {
  await tx.$executeRaw`
    UPDATE entries e SET transaction_kind = k.kind::"TransactionKind",
                         category_id = CASE WHEN k.kind = 'investment_contribution' THEN COALESCE(e.category_id, ${contributionCategory}::uuid) ELSE e.category_id END,
                         updated_at = now()
      FROM unnest(${column(kinds, (k) => k.outflow)}::uuid[], ${column(kinds, (k) => k.kind)}::text[]) AS k(outflow, kind) WHERE e.id = k.outflow`;
}

/** Writes the transfers, skipping one naming a transaction already paired: answers those written. */
export function insertTransfers(tx: FinanceTx, familyId: string, batch: readonly (SureTransferValues & TransferPair)[]) {
  return tx.$queryRaw<TransferPair[]>`
    INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, notes, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.inflow, t.outflow, t.status::"TransferStatus", t.notes, now(), now()
      FROM unnest(${column(batch, (p) => p.id)}::uuid[], ${column(batch, (p) => p.inflow)}::uuid[], ${column(batch, (p) => p.outflow)}::uuid[],
                  ${column(batch, (p) => p.status)}::text[], ${column(batch, (p) => p.notes)}::text[])
           WITH ORDINALITY AS t(id, inflow, outflow, status, notes, ordinal)
     ORDER BY t.ordinal
    ON CONFLICT DO NOTHING
    RETURNING id::text AS id, inflow_entry_id::text AS inflow, outflow_entry_id::text AS outflow`;
}

/** Writes the rejected transfers, skipping a pair rejected already: how many it wrote. */
export function insertRejectedTransfers(tx: FinanceTx, familyId: string, batch: readonly TransferPair[]): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO rejected_transfers (id, family_id, inflow_entry_id, outflow_entry_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.inflow, t.outflow, now(), now()
      FROM unnest(${column(batch, (p) => p.id)}::uuid[], ${column(batch, (p) => p.inflow)}::uuid[], ${column(batch, (p) => p.outflow)}::uuid[])
           WITH ORDINALITY AS t(id, inflow, outflow, ordinal)
     ORDER BY t.ordinal
    ON CONFLICT DO NOTHING`;
}
