import type { OutputOf, Transfer } from "@hearth/contracts";
import { isoDateOf } from "../ledger/dates";
import { displayOf, entryAmountOf } from "../ledger/money";
import { toAccountRef } from "../accounts/account-resource";
import { transferTypeOf } from "./transfer-kinds";
import type { RejectedTransferRow, TransferRow } from "./transfer-repository";

type SideRow = TransferRow["inflow"];

function toTransferSide(entry: SideRow) {
  return {
    id: entry.id,
    entry_id: entry.id,
    ...entryAmountOf(entry),
    name: entry.name,
    kind: entry.transactionKind ?? "standard",
    account: toAccountRef(entry.account),
  };
}

/** The transfer's amount is what left the source account before its fee; its date is the outflow's. */
export function toTransferResource(row: TransferRow): Transfer {
  const size = row.outflow.amountCents - (row.sourceFeeCents ?? 0n);
  const fee = (cents: bigint | null, currency: string) =>
    cents === null ? { amount: null, cents: null, currency: null } : { amount: displayOf(cents, currency), cents: Number(cents), currency };
  const sourceFee = fee(row.sourceFeeCents, row.outflow.currency);
  const destinationFee = fee(row.destinationFeeCents, row.inflow.currency);
  return {
    id: row.id,
    status: row.status,
    date: isoDateOf(row.outflow.date),
    amount: displayOf(size, row.outflow.currency),
    amount_cents: Number(size),
    currency: row.outflow.currency,
    transfer_type: transferTypeOf(row.inflow.account.accountType),
    notes: row.notes,
    source_fee_amount: sourceFee.amount,
    source_fee_amount_cents: sourceFee.cents,
    source_fee_currency: sourceFee.currency,
    destination_fee_amount: destinationFee.amount,
    destination_fee_amount_cents: destinationFee.cents,
    destination_fee_currency: destinationFee.currency,
    inflow_transaction: toTransferSide(row.inflow),
    outflow_transaction: toTransferSide(row.outflow),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toRejectedTransferResource(row: RejectedTransferRow): OutputOf<"rejectedTransfers.get"> {
  return {
    id: row.id,
    inflow_transaction: toTransferSide(row.inflow),
    outflow_transaction: toTransferSide(row.outflow),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
