import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { countRows, keysetBatches, type ExportScope } from "./export-scope";

export interface CategoryRow {
  id: string;
  name: string;
  color: string;
  icon: string;
  classification: string;
  parent_id: string | null;
  parent_name: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The family's categories by name (unique per family, and indexed so). */
export const categoryBatches = (scope: ExportScope, part: string) =>
  keysetBatches<CategoryRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT c.id::text AS id, c.name, c.color, c.icon, c.classification::text AS classification,
             c.parent_id::text AS parent_id, p.name AS parent_name, c.created_at, c.updated_at
        FROM categories c
        LEFT JOIN categories p ON p.id = c.parent_id AND p.family_id = c.family_id
       WHERE c.family_id = ${scope.familyId}::uuid ${after === null ? Prisma.empty : Prisma.sql`AND c.name > ${after.name}`}
       ORDER BY c.name
       LIMIT ${limit}`,
  );

export const CATEGORIES_CSV_HEADER = ["name", "color", "parent_category", "lucide_icon"] as const;

/** categories.csv: Sure's columns; the parent by name, the icon as Sure's lucide_icon. */
export async function* categoriesCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(CATEGORIES_CSV_HEADER);
  for await (const rows of categoryBatches(scope, "categories.csv")) {
    countRows(scope, "categories.csv", rows.length);
    yield rows.map((c) => csvRow([c.name, c.color, c.parent_name, c.icon])).join("");
  }
}
