import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { amountSql, csvTextSql } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import { csvRows, type ExportScope } from "./export-scope";

/**
 * The family's transactions (entries of kind transaction, transfer fees included) in date order.
 * Tags by name: the family's entry_tags grouped once by entry and joined by hash (a lookup and
 * an ordered aggregate per entry cost twice the whole read); `tags_cell` is Sure's tags cell:
 * each name's \ , and | escaped with a backslash (Sure's escape_legacy_tag_name, so a name with a
 * comma survives), joined with commas.
 */
export const transactionRows = (scope: ExportScope): Prisma.Sql => Prisma.sql`
  SELECT e.date::text AS date, e.id::text AS id, e.account_id::text AS account_id, a.name AS account_name,
         e.amount_cents, e.currency, e.name, e.notes, e.excluded,
         e.category_id::text AS category_id, c.name AS category_name, e.merchant_id::text AS merchant_id,
         coalesce(e.transaction_kind::text, 'standard') AS kind, coalesce(tg.ids, '{}') AS tag_ids, coalesce(tg.cell, '') AS tags_cell,
         e.created_at, e.updated_at
    FROM entries e
    JOIN accounts a ON a.id = e.account_id
    LEFT JOIN categories c ON c.id = e.category_id AND c.family_id = e.family_id
    LEFT JOIN (
      SELECT et.entry_id,
             array_agg(t.id::text ORDER BY t.name, t.id) AS ids,
             string_agg(regexp_replace(t.name, '([\\\\,|])', '\\\\\\1', 'g'), ',' ORDER BY t.name, t.id) AS cell
        FROM entry_tags et JOIN tags t ON t.id = et.tag_id
       WHERE t.family_id = ${scope.familyId}::uuid
       GROUP BY et.entry_id) tg ON tg.entry_id = e.id
   WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'transaction' AND ${exportedAccount("a", scope.familyId)}
   ORDER BY e.date, e.id`;

export const TRANSACTIONS_CSV_HEADER = ["date", "account_name", "amount", "name", "category", "tags", "notes", "currency"] as const;

/**
 * transactions.csv: Sure's columns; amounts signed as stored (positive is an outflow), tags
 * comma-joined; the text cells (names, category, tags, notes) guarded against formulas (csvTextSql).
 */
export async function* transactionsCsv(scope: ExportScope): AsyncGenerator<string | Buffer> {
  yield csvRow(TRANSACTIONS_CSV_HEADER);
  yield* csvRows(scope, "transactions.csv", transactionRows(scope), [
    Prisma.sql`r.date`,
    csvTextSql(Prisma.sql`r.account_name`),
    amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.currency`),
    csvTextSql(Prisma.sql`r.name`),
    csvTextSql(Prisma.sql`r.category_name`),
    csvTextSql(Prisma.sql`r.tags_cell`),
    csvTextSql(Prisma.sql`r.notes`),
    Prisma.sql`r.currency`,
  ]);
}
