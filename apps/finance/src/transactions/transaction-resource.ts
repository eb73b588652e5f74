import type { Transaction } from "@hearth/contracts";
import type { Prisma } from "../generated/prisma/client";
import { toAccountSummary } from "../accounts/account-resource";
import { isoDateOf } from "../ledger/dates";
import { displayOf } from "../ledger/money";

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

/** Sure's transfer summary: the transfer's size (what left the source) and the other side's account. */
function transferOf(row: TransactionRow): Transaction["transfer"] {
  if (row.transferIn) {
    const { outflow } = row.transferIn;
    const size = outflow.amountCents - (row.transferIn.sourceFeeCents ?? 0n);
    return {
      id: row.transferIn.id,
      amount: displayOf(size, outflow.currency),
      amount_cents: Number(size),
      currency: outflow.currency,
      other_account: toAccountSummary(outflow.account),
    };
  }
  if (row.transferOut) {
    const size = row.amountCents - (row.transferOut.sourceFeeCents ?? 0n);
    return {
      id: row.transferOut.id,
      amount: displayOf(size, row.currency),
      amount_cents: Number(size),
      currency: row.currency,
      other_account: toAccountSummary(row.transferOut.inflow.account),
    };
  }
  return null;
}

export function toTransactionResource(row: TransactionRow): Transaction {
  return {
    id: row.id,
    date: isoDateOf(row.date),
    amount: displayOf(row.amountCents, row.currency),
    amount_cents: Number(row.amountCents),
    currency: row.currency,
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
