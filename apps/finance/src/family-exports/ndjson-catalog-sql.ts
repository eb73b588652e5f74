import { Prisma } from "../generated/prisma/client";
import { categoryRows } from "./categories-csv-sql";
import { col, timestampFields, token, tokenCol } from "./export-format-sql";
import type { ExportScope } from "./export-scope";
import { merchantRows } from "./merchants-csv-sql";
import { recordSection } from "./sure-record";

/** Category records: Sure's category.as_json; Hearth's classification is Sure's classification_unused, its icon Sure's lucide_icon. */
export const categoryRecords = recordSection("Category", categoryRows, {
  id: tokenCol("id"),
  name: col("name"),
  color: col("color"),
  family_id: tokenCol("family_id"),
  ...timestampFields(),
  parent_id: tokenCol("parent_id"),
  classification_unused: tokenCol("classification"),
  lucide_icon: col("icon"),
});

const tagRows = (scope: ExportScope) => Prisma.sql`
  SELECT t.id::text AS id, t.name, t.color, t.family_id::text AS family_id, t.created_at, t.updated_at
    FROM tags t
   WHERE t.family_id = ${scope.familyId}::uuid
   ORDER BY t.name`;

/** Tag records: Sure's tag.as_json, by name. */
export const tagRecords = recordSection("Tag", tagRows, {
  id: tokenCol("id"),
  name: col("name"),
  color: col("color"),
  family_id: tokenCol("family_id"),
  ...timestampFields(),
});

/** Merchant records: Sure's FamilyMerchant#as_json for the columns Hearth has (its import reads logo_url; Hearth's website_url too). */
export const merchantRecords = recordSection("Merchant", merchantRows, {
  id: tokenCol("id"),
  name: col("name"),
  color: col("color"),
  family_id: tokenCol("family_id"),
  ...timestampFields(),
  logo_url: col("logo_url"),
  website_url: col("website_url"),
  type: token(Prisma.sql`'FamilyMerchant'`),
});
