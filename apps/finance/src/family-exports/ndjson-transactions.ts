import { Prisma } from "../generated/prisma/client";
import { afterId, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { amountText, jsonTime } from "./sure-values";
import { transactionBatches } from "./transactions-csv";

/**
 * Transaction records: Sure's transaction data. Hearth keeps a transaction on its entry, so the
 * entry's id is both the transaction's id and entry_id (transfers refer to it). No split_lines:
 * Hearth has no split transactions.
 */
export async function* transactionRecords(scope: ExportScope): RecordSection {
  for await (const rows of transactionBatches(scope, "all.ndjson:Transaction")) {
    yield rows.map((t) => ({
      type: "Transaction",
      data: {
        id: t.id,
        entry_id: t.id,
        account_id: t.account_id,
        date: t.date,
        amount: amountText(t.amount_cents, t.currency),
        currency: t.currency,
        name: t.name,
        notes: t.notes,
        excluded: t.excluded,
        category_id: t.category_id,
        merchant_id: t.merchant_id,
        tag_ids: t.tag_ids,
        kind: t.kind ?? "standard",
        created_at: jsonTime(t.created_at),
        updated_at: jsonTime(t.updated_at),
      },
    }));
  }
}

interface PairRow {
  id: string;
  inflow_transaction_id: string;
  outflow_transaction_id: string;
  status: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Transfers or rejected transfers whose two sides are both exported transactions, by id. */
function pairBatches(scope: ExportScope, part: string, table: "transfers" | "rejected_transfers") {
  const extra = table === "transfers" ? Prisma.sql`p.status::text AS status, p.notes` : Prisma.sql`NULL AS status, NULL AS notes`;
  return keysetBatches<PairRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT p.id::text AS id, p.inflow_entry_id::text AS inflow_transaction_id, p.outflow_entry_id::text AS outflow_transaction_id,
             ${extra}, p.created_at, p.updated_at
        FROM ${Prisma.raw(table)} p
        JOIN entries i ON i.id = p.inflow_entry_id AND i.family_id = p.family_id AND i.kind = 'transaction'
        JOIN accounts ia ON ia.id = i.account_id
        JOIN entries o ON o.id = p.outflow_entry_id AND o.family_id = p.family_id AND o.kind = 'transaction'
        JOIN accounts oa ON oa.id = o.account_id
       WHERE p.family_id = ${scope.familyId}::uuid AND ${exportedAccount("ia", scope.familyId)} AND ${exportedAccount("oa", scope.familyId)}
             ${afterId("p.id", after)}
       ORDER BY p.id
       LIMIT ${limit}`,
  );
}

/** Transfer records (after the transactions, so an importer can map both sides). */
export async function* transferRecords(scope: ExportScope): RecordSection {
  for await (const rows of pairBatches(scope, "all.ndjson:Transfer", "transfers")) {
    yield rows.map((t) => ({
      type: "Transfer",
      data: {
        id: t.id,
        inflow_transaction_id: t.inflow_transaction_id,
        outflow_transaction_id: t.outflow_transaction_id,
        status: t.status,
        notes: t.notes,
        created_at: jsonTime(t.created_at),
        updated_at: jsonTime(t.updated_at),
      },
    }));
  }
}

/** RejectedTransfer records: pairs the family said are no transfer. */
export async function* rejectedTransferRecords(scope: ExportScope): RecordSection {
  for await (const rows of pairBatches(scope, "all.ndjson:RejectedTransfer", "rejected_transfers")) {
    yield rows.map((t) => ({
      type: "RejectedTransfer",
      data: {
        id: t.id,
        inflow_transaction_id: t.inflow_transaction_id,
        outflow_transaction_id: t.outflow_transaction_id,
        created_at: jsonTime(t.created_at),
        updated_at: jsonTime(t.updated_at),
      },
    }));
  }
}
