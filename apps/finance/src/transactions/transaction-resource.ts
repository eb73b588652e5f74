import type { Transaction } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { displayOf, entryAmountOf } from "../ledger/money";
import type { TransactionRow } from "./transaction-repository";

/**
 * Sure's transfer summary: the transfer's size (what left the source before its fee) and the other
 * side's account. A side already gone (its account being removed right now) means no transfer.
 */
function transferOf(row: TransactionRow): Transaction["transfer"] {
  const transfer = row.transferIn ?? row.transferOut;
  if (!transfer) return null;
  const outflow = row.transferIn ? (row.transferIn.outflow as typeof row.transferIn.outflow | null) : row;
  const other = row.transferIn ? outflow?.account : (row.transferOut?.inflow as { account: TransactionRow["account"] } | null)?.account;
  if (!outflow || !other) return null;
  const size = outflow.amountCents - (transfer.sourceFeeCents ?? 0n);
  return {
    id: transfer.id,
    amount: displayOf(size, outflow.currency),
    amount_cents: Number(size),
    currency: outflow.currency,
    other_account: toAccountSummary(other),
  };
}

/** Sure's agent-friendly cents: the size, and the size signed as income (+) or expense (-). */
function centsOfEntry(amountCents: bigint) {
  const size = Number(amountCents < 0n ? -amountCents : amountCents);
  return { amount_cents: size, signed_amount_cents: amountCents < 0n ? size : -size + 0 };
}

export function toTransactionResource(row: TransactionRow): Transaction {
  return {
    id: row.id,
    ...entryAmountOf(row),
    ...centsOfEntry(row.amountCents),
    name: row.name,
    notes: row.notes,
    external_id: row.externalId,
    source: row.source,
    classification: row.amountCents < 0n ? "income" : "expense",
    kind: row.transactionKind ?? "standard",
    excluded: row.excluded,
    account: toAccountSummary(row.account),
    category: row.category,
    merchant: row.merchant,
    tags: row.tags.map(({ tag }) => tag),
    transfer: transferOf(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
