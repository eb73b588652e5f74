import { Prisma } from "../generated/prisma/client";
import { categoryRows } from "./categories-csv";
import { afterText, type ExportScope } from "./export-scope";
import { merchantRows } from "./merchants-csv";
import { jsonTimeSql } from "./sql-format";
import { recordSection } from "./sure-record";

const timestamps = Prisma.sql`${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`;

/** Category records: Sure's category.as_json; Hearth's classification is Sure's classification_unused, its icon Sure's lucide_icon. */
export const categoryRecords = recordSection(
  "Category",
  1,
  categoryRows,
  Prisma.sql`r.id, r.name, r.color, r.family_id, ${timestamps}, r.parent_id, r.classification AS classification_unused, r.icon AS lucide_icon`,
);

const tagRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT t.name AS k0, t.id::text AS id, t.name, t.color, t.family_id::text AS family_id, t.created_at, t.updated_at
    FROM tags t
   WHERE t.family_id = ${scope.familyId}::uuid ${afterText("t.name", after)}
   ORDER BY t.name
   LIMIT ${limit}`;

/** Tag records: Sure's tag.as_json, by name. */
export const tagRecords = recordSection("Tag", 1, tagRows, Prisma.sql`r.id, r.name, r.color, r.family_id, ${timestamps}`);

/** Merchant records: Sure's FamilyMerchant#as_json for the columns Hearth has. */
export const merchantRecords = recordSection(
  "Merchant",
  1,
  merchantRows,
  Prisma.sql`r.id, r.name, r.color, r.family_id, ${timestamps}, 'FamilyMerchant' AS type`,
);
