import { familyCategoryNamed, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "../../../transfers/transfer-category-queries";
import { createdOutflowKindOf } from "../../../transfers/transfer-kinds";
import type { SureRejectedTransferValues, SureTransferValues } from "../../ndjson";
import { chunksOf, inBatches, type SurePublishContext } from "./sure-publish-context";
import { insertRejectedTransfers, insertTransfers, markInflowsFundsMovement, setOutflowKinds, transferSides, type TransferPair } from "./sure-transfer-queries";

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
async function applyTransferKinds(context: SurePublishContext, pairs: readonly TransferPair[]): Promise<void> {
  const { tx, familyId } = context;
  const sides = await transferSides(tx, pairs);
  const kinds = sides.map((side) => ({ ...side, kind: createdOutflowKindOf(side.outflow_type, side.inflow_type) }));
  const contributionCategory = kinds.some((side) => side.kind === "investment_contribution" && side.uncategorized)
    ? await familyCategoryNamed(tx, familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY)
    : null;
  await markInflowsFundsMovement(tx, pairs);
  await setOutflowKinds(tx, kinds, contributionCategory);
}

/**
 * import_transfers and import_rejected_transfers: pairs of the transactions' new ids. A pair
 * naming a transaction already paired (or twice the same pair) is skipped, as the one transfer
 * a transaction may be part of; so is one naming a split transaction rather than its lines.
 */
export async function publishTransfers(context: SurePublishContext, transfers: readonly SureTransferValues[], rejected: readonly SureRejectedTransferValues[]) {
  const { tx, familyId } = context;
  const pairs = mappedPairs(context, transfers);
  const linked: TransferPair[] = [];
  await inBatches(context, pairs, async (batch) => {
    linked.push(...(await insertTransfers(tx, familyId, batch)));
  });
  await context.linesDone(transfers.length - pairs.length);
  for (const chunk of chunksOf(linked)) await applyTransferKinds(context, chunk);

  const rejections = mappedPairs(context, rejected);
  let rejectedWritten = 0;
  await inBatches(context, rejections, async (batch) => {
    rejectedWritten += await insertRejectedTransfers(tx, familyId, batch);
  });
  await context.linesDone(rejected.length - rejections.length);
  return {
    transfers: linked.length,
    skipped_transfers: transfers.length - linked.length,
    rejected_transfers: rejectedWritten,
    skipped_rejected_transfers: rejected.length - rejectedWritten,
  };
}
