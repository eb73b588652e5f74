import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { csvTextSql } from "./export-format-sql";
import { csvRows, type ExportScope } from "./export-scope";

/** The family's own merchants (Sure's FamilyMerchant; provider merchants are not exported) by name. */
export const merchantRows = (scope: ExportScope): Prisma.Sql => Prisma.sql`
  SELECT m.id::text AS id, m.name, m.color, m.website_url, m.logo_url, m.family_id::text AS family_id, m.created_at, m.updated_at
    FROM merchants m
   WHERE m.family_id = ${scope.familyId}::uuid AND m.kind = 'FamilyMerchant'
   ORDER BY m.name`;

export const MERCHANTS_CSV_HEADER = ["name", "color", "website_url"] as const;

/** merchants.csv: Sure's columns (MerchantImport's, so it imports back), as generate_merchants_csv writes them; name and website guarded (csvTextSql). */
export async function* merchantsCsv(scope: ExportScope): AsyncGenerator<string | Buffer> {
  yield csvRow(MERCHANTS_CSV_HEADER);
  yield* csvRows(scope, "merchants.csv", merchantRows(scope), [csvTextSql(Prisma.sql`r.name`), Prisma.sql`r.color`, csvTextSql(Prisma.sql`r.website_url`)]);
}
