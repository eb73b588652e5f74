import { Prisma } from "../generated/prisma/client";
import { amountSql, col, timestampFields, token, tokenCol } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import type { ExportScope } from "./export-scope";
import { recordSection } from "./sure-record";
import { transactionRows } from "./transactions-csv-sql";

/**
 * Transaction records: Sure's transaction data. Hearth keeps a transaction on its entry, so the
 * entry's id is both the transaction's id and entry_id (transfers refer to it). No split_lines:
 * Hearth has no split transactions.
 */
export const transactionRecords = recordSection("Transaction", transactionRows, {
  id: tokenCol("id"),
  entry_id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  date: tokenCol("date"),
  amount: token(amountSql(col("amount_cents"), col("currency"))),
  currency: col("currency"),
  name: col("name"),
  notes: col("notes"),
  excluded: col("excluded"),
  category_id: tokenCol("category_id"),
  merchant_id: tokenCol("merchant_id"),
  tag_ids: col("tag_ids"),
  kind: tokenCol("kind"),
  ...timestampFields(),
});

/**
 * Whether an entry is an exported transaction. OFFSET 0 keeps it a lookup by primary key per pair:
 * flattened into a join, a planner without statistics yet (a fresh table) can pick a nested loop
 * over two scans of the family's entries.
 */
const exportedTransaction = (entryId: Prisma.Sql, familyId: string) => Prisma.sql`EXISTS (
  SELECT 1 FROM entries x JOIN accounts xa ON xa.id = x.account_id
   WHERE x.id = ${entryId} AND x.family_id = ${familyId}::uuid AND x.kind = 'transaction' AND ${exportedAccount("xa", familyId)}
  OFFSET 0)`;

/** Transfers or rejected transfers (by id) whose two sides are both exported transactions. */
const pairRows = (table: "transfers" | "rejected_transfers") => (scope: ExportScope) => Prisma.sql`
  SELECT p.id::text AS id, p.inflow_entry_id::text AS inflow_transaction_id, p.outflow_entry_id::text AS outflow_transaction_id,
         ${table === "transfers" ? Prisma.sql`p.status::text AS status, p.notes,` : Prisma.empty} p.created_at, p.updated_at
    FROM ${Prisma.raw(table)} p
   WHERE p.family_id = ${scope.familyId}::uuid
         AND ${exportedTransaction(Prisma.sql`p.inflow_entry_id`, scope.familyId)} AND ${exportedTransaction(Prisma.sql`p.outflow_entry_id`, scope.familyId)}
   ORDER BY p.id`;

/** Transfer records (after the transactions, so an importer can map both sides). */
export const transferRecords = recordSection("Transfer", pairRows("transfers"), {
  id: tokenCol("id"),
  inflow_transaction_id: tokenCol("inflow_transaction_id"),
  outflow_transaction_id: tokenCol("outflow_transaction_id"),
  status: tokenCol("status"),
  notes: col("notes"),
  ...timestampFields(),
});

/** RejectedTransfer records: pairs the family said are no transfer. */
export const rejectedTransferRecords = recordSection("RejectedTransfer", pairRows("rejected_transfers"), {
  id: tokenCol("id"),
  inflow_transaction_id: tokenCol("inflow_transaction_id"),
  outflow_transaction_id: tokenCol("outflow_transaction_id"),
  ...timestampFields(),
});
