import type { OutputOf, Transfer } from "@hearth/contracts";
import { isoDateOf } from "../ledger/dates";
import { displayOf, entryAmountOf, plainDecimalOf } from "../ledger/money";
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

/** Sure's TransferDecision view: date, amount and currency of what arrived; each fee the sum of the transfer's fee transactions in that account. */
export function toTransferResource(row: TransferRow): Transfer {
  const size = row.inflow.amountCents < 0n ? -row.inflow.amountCents : row.inflow.amountCents;
  const feeIn = (account: { id: string; currency: string }) => {
    const cents = row.fees.reduce((sum, fee) => (fee.accountId === account.id ? sum + fee.amountCents : sum), 0n);
    return { amount: plainDecimalOf(cents, account.currency), cents: Number(cents), currency: account.currency };
  };
  const sourceFee = feeIn({ id: row.outflow.accountId, currency: row.outflow.currency });
  const destinationFee = feeIn({ id: row.inflow.accountId, currency: row.inflow.currency });
  return {
    id: row.id,
    status: row.status,
    date: isoDateOf(row.inflow.date),
    amount: displayOf(size, row.inflow.currency),
    amount_cents: Number(size),
    currency: row.inflow.currency,
    transfer_type: transferTypeOf(row.outflow.transactionKind),
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
