import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterDateAndId, countRows, textBatches, type ExportScope } from "./export-scope";
import { amountSql, csvLineSql } from "./sql-format";

/**
 * The family's transactions (entries of kind transaction, transfer fees included) in date order,
 * keyed (k0, k1) = (date, id): the walk follows the (family, kind, date, id) list index. Tags by
 * name; `tags_cell` is Sure's tags cell: each name's \ , and | escaped with a backslash (Sure's
 * escape_legacy_tag_name, so a name with a comma survives), joined with commas.
 */
export const transactionRows = (scope: ExportScope, after: string[] | null, limit: number): Prisma.Sql => Prisma.sql`
  WITH batch AS (
    -- Cut from entries alone, in the list index's order, before anything is joined: joined first,
    -- the planner may read every remaining entry of each account and sort them, for every batch.
    SELECT * FROM entries e
     WHERE e.family_id = ${scope.familyId}::uuid AND e.kind = 'transaction'
       AND e.account_id NOT IN (SELECT id FROM accounts WHERE family_id = ${scope.familyId}::uuid AND status = 'pending_deletion')
           ${afterDateAndId("e", after)}
     ORDER BY e.date, e.id
     LIMIT ${limit}),
  tagged AS (
    -- The batch's tags in one grouped join (by entry_tags' primary key), not a subquery per row.
    SELECT et.entry_id,
           array_agg(t.id::text ORDER BY t.name, t.id) AS ids,
           string_agg(regexp_replace(t.name, '([\\\\,|])', '\\\\\\1', 'g'), ',' ORDER BY t.name, t.id) AS cell
      FROM batch b JOIN entry_tags et ON et.entry_id = b.id JOIN tags t ON t.id = et.tag_id AND t.family_id = b.family_id
     GROUP BY et.entry_id)
  SELECT e.date::text AS k0, e.id::text AS k1, e.id::text AS id, e.account_id::text AS account_id, a.name AS account_name,
         e.date, e.amount_cents, e.currency, e.name, e.notes, e.excluded,
         e.category_id::text AS category_id, c.name AS category_name, e.merchant_id::text AS merchant_id,
         coalesce(e.transaction_kind::text, 'standard') AS kind, coalesce(tg.ids, '{}') AS tag_ids, coalesce(tg.cell, '') AS tags_cell,
         e.created_at, e.updated_at
    FROM batch e
    JOIN accounts a ON a.id = e.account_id
    LEFT JOIN categories c ON c.id = e.category_id AND c.family_id = e.family_id
    LEFT JOIN tagged tg ON tg.entry_id = e.id
   ORDER BY e.date, e.id`;

export const TRANSACTIONS_CSV_HEADER = ["date", "account_name", "amount", "name", "category", "tags", "notes", "currency"] as const;

/** transactions.csv: Sure's columns; amounts signed as stored (positive is an outflow), tags comma-joined. */
export async function* transactionsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(TRANSACTIONS_CSV_HEADER);
  const line = csvLineSql([
    Prisma.sql`r.k0`,
    Prisma.sql`r.account_name`,
    amountSql(Prisma.sql`r.amount_cents`, Prisma.sql`r.currency`),
    Prisma.sql`r.name`,
    Prisma.sql`r.category_name`,
    Prisma.sql`r.tags_cell`,
    Prisma.sql`r.notes`,
    Prisma.sql`r.currency`,
  ]);
  for await (const batch of textBatches(scope, "transactions.csv", 2, "", (after, limit) => ({ rows: transactionRows(scope, after, limit), line }))) {
    countRows(scope, "transactions.csv", batch.rows);
    yield batch.text;
  }
}
