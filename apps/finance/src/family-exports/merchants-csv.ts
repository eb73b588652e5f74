import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterText, countRows, textBatches, type ExportScope } from "./export-scope";
import { csvLineSql } from "./sql-format";

/** The family's own merchants (Sure's FamilyMerchant; provider merchants are not exported) by name (k0). */
export const merchantRows = (scope: ExportScope, after: string[] | null, limit: number): Prisma.Sql => Prisma.sql`
  SELECT m.name AS k0, m.id::text AS id, m.name, m.color, m.family_id::text AS family_id, m.created_at, m.updated_at
    FROM merchants m
   WHERE m.family_id = ${scope.familyId}::uuid AND m.kind = 'FamilyMerchant' ${afterText("m.name", after)}
   ORDER BY m.name
   LIMIT ${limit}`;

export const MERCHANTS_CSV_HEADER = ["name", "color", "website_url"] as const;

/** merchants.csv: Sure's columns (MerchantImport's); Hearth keeps no website, so that cell is empty. */
export async function* merchantsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(MERCHANTS_CSV_HEADER);
  const line = csvLineSql([Prisma.sql`r.name`, Prisma.sql`r.color`, Prisma.sql`NULL::text`]);
  for await (const batch of textBatches(scope, "merchants.csv", 1, "", (after, limit) => ({ rows: merchantRows(scope, after, limit), line }))) {
    countRows(scope, "merchants.csv", batch.rows);
    yield batch.text;
  }
}
