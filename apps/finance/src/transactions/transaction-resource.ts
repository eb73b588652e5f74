import type { Transaction } from "@hearth/contracts";
import { toAccountSummary } from "../accounts/account-resource";
import { displayOf, entryAmountOf } from "../ledger/money";
import type { TransactionRow } from "./transaction-repository";

/**
 * Sure's transfer summary (_transaction.json.jbuilder): what arrived (the inflow's amount and
 * currency) and the other side's account. A side already gone (its account being removed right
 * now) means no transfer.
 */
function transferOf(row: TransactionRow): Transaction["transfer"] {
  const transfer = row.transferIn ?? row.transferOut;
  if (!transfer) return null;
  const inflow = row.transferIn ? row : (row.transferOut?.inflow as { amountCents: bigint; currency: string; account: TransactionRow["account"] } | null);
  const other = row.transferIn ? (row.transferIn.outflow as { account: TransactionRow["account"] } | null)?.account : inflow?.account;
  if (!inflow || !other) return null;
  const size = inflow.amountCents < 0n ? -inflow.amountCents : inflow.amountCents;
  return {
    id: transfer.id,
    amount: displayOf(size, inflow.currency),
    amount_cents: Number(size),
    currency: inflow.currency,
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
