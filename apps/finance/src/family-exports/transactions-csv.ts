import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterDateAndId, countRows, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import { amountText } from "./sure-values";

export interface TransactionRow {
  id: string;
  account_id: string;
  account_name: string;
  /** ISO date. */
  date: string;
  amount_cents: bigint;
  currency: string;
  name: string;
  notes: string | null;
  excluded: boolean;
  category_id: string | null;
  category_name: string | null;
  merchant_id: string | null;
  kind: string | null;
  /** The entry's tags, by name (ids and names in the same order). */
  tag_ids: string[];
  tag_names: string[];
  created_at: Date;
  updated_at: Date;
}

/**
 * The family's transactions (entries of kind transaction, transfer fees included) in date order,
 * by keyset on (date, id): the walk follows the (family, kind, date, id) list index.
 */
export const transactionBatches = (scope: ExportScope, part: string) =>
  keysetBatches<TransactionRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT e.id::text AS id, e.account_id::text AS account_id, a.name AS account_name, e.date::text AS date,
             e.amount_cents, e.currency, e.name, e.notes, e.excluded,
             e.category_id::text AS category_id, c.name AS category_name, e.merchant_id::text AS merchant_id,
             e.transaction_kind::text AS kind,
             ARRAY(SELECT t.id::text FROM entry_tags et JOIN tags t ON t.id = et.tag_id
                    WHERE et.entry_id = e.id AND t.family_id = e.family_id ORDER BY t.name, t.id) AS tag_ids,
             ARRAY(SELECT t.name FROM entry_tags et JOIN tags t ON t.id = et.tag_id
                    WHERE et.entry_id = e.id AND t.family_id = e.family_id ORDER BY t.name, t.id) AS tag_names,
             e.created_at, e.updated_at
        FROM entries e
        JOIN accounts a ON a.id = e.account_id
        LEFT JOIN categories c ON c.id = e.category_id AND c.family_id = e.family_id
       WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'transaction' AND ${exportedAccount("a", scope.familyId)}
             ${afterDateAndId("e", after)}
       ORDER BY e.date, e.id
       LIMIT ${limit}`,
  );

/** Sure's escape_legacy_tag_name: a tag's \ , and | get a backslash, so a name with a comma survives the comma-joined list. */
export const legacyTagName = (name: string): string => name.replace(/[\\,|]/g, (char) => `\\${char}`);

export const TRANSACTIONS_CSV_HEADER = ["date", "account_name", "amount", "name", "category", "tags", "notes", "currency"] as const;

/** transactions.csv: Sure's columns; amounts signed as stored (positive is an outflow), tags comma-joined. */
export async function* transactionsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(TRANSACTIONS_CSV_HEADER);
  for await (const rows of transactionBatches(scope, "transactions.csv")) {
    countRows(scope, "transactions.csv", rows.length);
    yield rows
      .map((t) =>
        csvRow([
          t.date,
          t.account_name,
          amountText(t.amount_cents, t.currency),
          t.name,
          t.category_name,
          t.tag_names.map(legacyTagName).join(","),
          t.notes,
          t.currency,
        ]),
      )
      .join("");
  }
}
