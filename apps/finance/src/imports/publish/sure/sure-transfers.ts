import type { AccountType } from "@hearth/contracts";
import { familyCategoryNamed, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "../../../transfers/transfer-categories";
import { createdOutflowKindOf } from "../../../transfers/transfer-kinds";
import type { SureRejectedTransferValues, SureTransferValues } from "../../ndjson";
import { chunksOf, column, inBatches, type SurePublishContext } from "./sure-publish-context";

interface Pair {
  id: string;
  inflow: string;
  outflow: string;
}

/** The pairs both of whose transactions were written (a split transaction's own id names none). */
function mappedPairs<T extends { inflow_transaction_id: string; outflow_transaction_id: string }>(context: SurePublishContext, records: readonly T[]) {
  return records.flatMap((record) => {
    const inflow = context.ids.get("transactions", record.inflow_transaction_id);
    const outflow = context.ids.get("transactions", record.outflow_transaction_id);
    return inflow === null || outflow === null || inflow === outflow ? [] : [{ ...record, id: context.newId(), inflow, outflow }];
  });
}

/**
 * apply_transfer_transaction_kinds!: the outflow's kind from the two accounts, as a recorded
 * transfer's (a loan payment, a liability payment, a contribution to an investment account from
 * outside one, else a movement of funds), the inflow a movement of funds; an uncategorised
 * contribution goes to the family's Investment Contributions category.
 */
async function applyTransferKinds(context: SurePublishContext, pairs: readonly Pair[]): Promise<void> {
  const { tx, familyId } = context;
  const sides = await tx.$queryRaw<{ outflow: string; inflow_type: AccountType; outflow_type: AccountType; uncategorized: boolean }[]>`
    SELECT p.outflow::text AS outflow, ia.account_type::text AS inflow_type, oa.account_type::text AS outflow_type, o.category_id IS NULL AS uncategorized
      FROM unnest(${column(pairs, (p) => p.inflow)}::uuid[], ${column(pairs, (p) => p.outflow)}::uuid[]) AS p(inflow, outflow)
      JOIN entries i ON i.id = p.inflow JOIN accounts ia ON ia.id = i.account_id
      JOIN entries o ON o.id = p.outflow JOIN accounts oa ON oa.id = o.account_id`;
  const kinds = sides.map((side) => ({ ...side, kind: createdOutflowKindOf(side.outflow_type, side.inflow_type) }));
  const contributionCategory = kinds.some((side) => side.kind === "investment_contribution" && side.uncategorized)
    ? await familyCategoryNamed(tx, familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY)
    : null;
  await tx.$executeRaw`
    UPDATE entries e SET transaction_kind = 'funds_movement', updated_at = now()
      FROM unnest(${column(pairs, (p) => p.inflow)}::uuid[]) AS p(inflow) WHERE e.id = p.inflow`;
  await tx.$executeRaw`
    UPDATE entries e SET transaction_kind = k.kind::"TransactionKind",
                         category_id = CASE WHEN k.kind = 'investment_contribution' THEN COALESCE(e.category_id, ${contributionCategory}::uuid) ELSE e.category_id END,
                         updated_at = now()
      FROM unnest(${column(kinds, (k) => k.outflow)}::uuid[], ${column(kinds, (k) => k.kind)}::text[]) AS k(outflow, kind) WHERE e.id = k.outflow`;
}

/**
 * import_transfers and import_rejected_transfers: pairs of the transactions' new ids. A pair
 * naming a transaction already paired (or twice the same pair) is skipped, as the one transfer
 * a transaction may be part of; so is one naming a split transaction rather than its lines.
 */
export async function publishTransfers(context: SurePublishContext, transfers: readonly SureTransferValues[], rejected: readonly SureRejectedTransferValues[]) {
  const { tx, familyId } = context;
  const pairs = mappedPairs(context, transfers);
  const linked: Pair[] = [];
  await inBatches(context, pairs, async (batch) => {
    const rows = await tx.$queryRaw<Pair[]>`
      INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, notes, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.inflow, t.outflow, t.status::"TransferStatus", t.notes, now(), now()
        FROM unnest(${column(batch, (p) => p.id)}::uuid[], ${column(batch, (p) => p.inflow)}::uuid[], ${column(batch, (p) => p.outflow)}::uuid[],
                    ${column(batch, (p) => p.status)}::text[], ${column(batch, (p) => p.notes)}::text[])
             WITH ORDINALITY AS t(id, inflow, outflow, status, notes, ordinal)
       ORDER BY t.ordinal
      ON CONFLICT DO NOTHING
      RETURNING id::text AS id, inflow_entry_id::text AS inflow, outflow_entry_id::text AS outflow`;
    linked.push(...rows);
  });
  await context.linesDone(transfers.length - pairs.length);
  for (const chunk of chunksOf(linked)) await applyTransferKinds(context, chunk);

  const rejections = mappedPairs(context, rejected);
  let rejectedWritten = 0;
  await inBatches(context, rejections, async (batch) => {
    rejectedWritten += await tx.$executeRaw`
      INSERT INTO rejected_transfers (id, family_id, inflow_entry_id, outflow_entry_id, created_at, updated_at)
      SELECT t.id, ${familyId}::uuid, t.inflow, t.outflow, now(), now()
        FROM unnest(${column(batch, (p) => p.id)}::uuid[], ${column(batch, (p) => p.inflow)}::uuid[], ${column(batch, (p) => p.outflow)}::uuid[])
             WITH ORDINALITY AS t(id, inflow, outflow, ordinal)
       ORDER BY t.ordinal
      ON CONFLICT DO NOTHING`;
  });
  await context.linesDone(rejected.length - rejections.length);
  return {
    transfers: linked.length,
    skipped_transfers: transfers.length - linked.length,
    rejected_transfers: rejectedWritten,
    skipped_rejected_transfers: rejected.length - rejectedWritten,
  };
}
