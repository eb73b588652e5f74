import { Prisma } from "../generated/prisma/client";
import { afterId, exportedAccount, type ExportScope } from "./export-scope";
import { amountSql, jsonTimeSql } from "./sql-format";
import { recordSection } from "./sure-record";
import { transactionRows } from "./transactions-csv";

const timestamps = Prisma.sql`${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`;

/**
 * Transaction records: Sure's transaction data. Hearth keeps a transaction on its entry, so the
 * entry's id is both the transaction's id and entry_id (transfers refer to it). No split_lines:
 * Hearth has no split transactions.
 */
export const transactionRecords = recordSection(
  "Transaction",
  2,
  transactionRows,
  Prisma.sql`r.id, r.id AS entry_id, r.account_id, r.k0 AS date, ${amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.currency`)} AS amount, r.currency,
    r.name, r.notes, r.excluded, r.category_id, r.merchant_id, r.tag_ids, r.kind, ${timestamps}`,
);

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
const pairRows = (table: "transfers" | "rejected_transfers") => (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT p.id::text AS k0, p.id::text AS id, p.inflow_entry_id::text AS inflow_transaction_id, p.outflow_entry_id::text AS outflow_transaction_id,
         ${table === "transfers" ? Prisma.sql`p.status::text AS status, p.notes,` : Prisma.empty} p.created_at, p.updated_at
    FROM ${Prisma.raw(table)} p
   WHERE p.family_id = ${scope.familyId}::uuid
         AND ${exportedTransaction(Prisma.sql`p.inflow_entry_id`, scope.familyId)} AND ${exportedTransaction(Prisma.sql`p.outflow_entry_id`, scope.familyId)}
         ${afterId("p.id", after)}
   ORDER BY p.id
   LIMIT ${limit}`;

/** Transfer records (after the transactions, so an importer can map both sides). */
export const transferRecords = recordSection(
  "Transfer",
  1,
  pairRows("transfers"),
  Prisma.sql`r.id, r.inflow_transaction_id, r.outflow_transaction_id, r.status, r.notes, ${timestamps}`,
);

/** RejectedTransfer records: pairs the family said are no transfer. */
export const rejectedTransferRecords = recordSection(
  "RejectedTransfer",
  1,
  pairRows("rejected_transfers"),
  Prisma.sql`r.id, r.inflow_transaction_id, r.outflow_transaction_id, ${timestamps}`,
);
