import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { csvTextSql } from "./export-format-sql";
import { csvRows, type ExportScope } from "./export-scope";

/** The family's categories by name (unique per family, and indexed so), with their parent's name. */
export const categoryRows = (scope: ExportScope): Prisma.Sql => Prisma.sql`
  SELECT c.id::text AS id, c.name, c.color, c.family_id::text AS family_id, c.icon, c.classification::text AS classification,
         c.parent_id::text AS parent_id, p.name AS parent_name, c.created_at, c.updated_at
    FROM categories c
    LEFT JOIN categories p ON p.id = c.parent_id AND p.family_id = c.family_id
   WHERE c.family_id = ${scope.familyId}::uuid
   ORDER BY c.name`;

export const CATEGORIES_CSV_HEADER = ["name", "color", "parent_category", "lucide_icon"] as const;

/**
 * categories.csv: Sure's columns; the parent by name, the icon as Sure's lucide_icon. Names and the
 * icon (any text an import brought) are guarded (csvTextSql); the colour is always a hex "#…".
 */
export async function* categoriesCsv(scope: ExportScope): AsyncGenerator<string | Buffer> {
  yield csvRow(CATEGORIES_CSV_HEADER);
  yield* csvRows(scope, "categories.csv", categoryRows(scope), [
    csvTextSql(Prisma.sql`r.name`),
    Prisma.sql`r.color`,
    csvTextSql(Prisma.sql`r.parent_name`),
    csvTextSql(Prisma.sql`r.icon`),
  ]);
}
