import type { Transaction } from "@hearth/contracts";
import type { Prisma } from "../generated/prisma/client";
import { toAccountSummary } from "../accounts/account-resource";
import { displayOf, entryAmountOf } from "../ledger/money";

const ACCOUNT_SUMMARY = { select: { id: true, name: true, accountType: true, status: true } } as const;

/** What a transaction's answer needs, loaded with it in one round of queries. */
export const TRANSACTION_INCLUDE = {
  account: ACCOUNT_SUMMARY,
  category: { select: { id: true, name: true, color: true, icon: true } },
  merchant: { select: { id: true, name: true } },
  tags: { select: { tag: { select: { id: true, name: true, color: true } } }, orderBy: { tag: { name: "asc" } } },
  transferIn: { include: { outflow: { select: { amountCents: true, currency: true, account: ACCOUNT_SUMMARY } } } },
  transferOut: { include: { inflow: { select: { account: ACCOUNT_SUMMARY } } } },
} as const satisfies Prisma.EntryInclude;
export type TransactionRow = Prisma.EntryGetPayload<{ include: typeof TRANSACTION_INCLUDE }>;

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

export function toTransactionResource(row: TransactionRow): Transaction {
  return {
    id: row.id,
    ...entryAmountOf(row),
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
