import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { afterText, countRows, textBatches, type ExportScope } from "./export-scope";
import { csvLineSql } from "./sql-format";

/** The family's categories by name (k0; unique per family, and indexed so), with their parent's name. */
export const categoryRows = (scope: ExportScope, after: string[] | null, limit: number): Prisma.Sql => Prisma.sql`
  SELECT c.name AS k0, c.id::text AS id, c.name, c.color, c.family_id::text AS family_id, c.icon, c.classification::text AS classification,
         c.parent_id::text AS parent_id, p.name AS parent_name, c.created_at, c.updated_at
    FROM categories c
    LEFT JOIN categories p ON p.id = c.parent_id AND p.family_id = c.family_id
   WHERE c.family_id = ${scope.familyId}::uuid ${afterText("c.name", after)}
   ORDER BY c.name
   LIMIT ${limit}`;

export const CATEGORIES_CSV_HEADER = ["name", "color", "parent_category", "lucide_icon"] as const;

/** categories.csv: Sure's columns; the parent by name, the icon as Sure's lucide_icon. */
export async function* categoriesCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(CATEGORIES_CSV_HEADER);
  const line = csvLineSql([Prisma.sql`r.name`, Prisma.sql`r.color`, Prisma.sql`r.parent_name`, Prisma.sql`r.icon`]);
  for await (const batch of textBatches(scope, "categories.csv", 1, "", (after, limit) => ({ rows: categoryRows(scope, after, limit), line }))) {
    countRows(scope, "categories.csv", batch.rows);
    yield batch.text;
  }
}
