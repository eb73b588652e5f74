import { Prisma } from "../generated/prisma/client";
import { categoryBatches } from "./categories-csv";
import { keysetBatches, type ExportScope } from "./export-scope";
import { merchantBatches } from "./merchants-csv";
import type { RecordSection } from "./sure-record";
import { jsonTime } from "./sure-values";

/** Category records: Sure's category.as_json; Hearth's classification is Sure's classification_unused, its icon Sure's lucide_icon. */
export async function* categoryRecords(scope: ExportScope): RecordSection {
  for await (const rows of categoryBatches(scope, "all.ndjson:Category")) {
    yield rows.map((c) => ({
      type: "Category",
      data: {
        id: c.id,
        name: c.name,
        color: c.color,
        family_id: scope.familyId,
        created_at: jsonTime(c.created_at),
        updated_at: jsonTime(c.updated_at),
        parent_id: c.parent_id,
        classification_unused: c.classification,
        lucide_icon: c.icon,
      },
    }));
  }
}

interface TagRow {
  id: string;
  name: string;
  color: string;
  created_at: Date;
  updated_at: Date;
}

/** Tag records: Sure's tag.as_json, by name. */
export async function* tagRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<TagRow>(
    scope,
    "all.ndjson:Tag",
    (after, limit) => Prisma.sql`
      SELECT t.id::text AS id, t.name, t.color, t.created_at, t.updated_at
        FROM tags t
       WHERE t.family_id = ${scope.familyId}::uuid ${after === null ? Prisma.empty : Prisma.sql`AND t.name > ${after.name}`}
       ORDER BY t.name
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((t) => ({
      type: "Tag",
      data: { id: t.id, name: t.name, color: t.color, family_id: scope.familyId, created_at: jsonTime(t.created_at), updated_at: jsonTime(t.updated_at) },
    }));
  }
}

/** Merchant records: Sure's FamilyMerchant#as_json for the columns Hearth has. */
export async function* merchantRecords(scope: ExportScope): RecordSection {
  for await (const rows of merchantBatches(scope, "all.ndjson:Merchant")) {
    yield rows.map((m) => ({
      type: "Merchant",
      data: {
        id: m.id,
        name: m.name,
        color: m.color,
        family_id: scope.familyId,
        created_at: jsonTime(m.created_at),
        updated_at: jsonTime(m.updated_at),
        type: "FamilyMerchant",
      },
    }));
  }
}
