import { Prisma } from "../generated/prisma/client";
import { csvRow } from "./csv-cell";
import { countRows, keysetBatches, type ExportScope } from "./export-scope";

export interface MerchantRow {
  id: string;
  name: string;
  color: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The family's own merchants (Sure's FamilyMerchant; provider merchants are not exported) by name. */
export const merchantBatches = (scope: ExportScope, part: string) =>
  keysetBatches<MerchantRow>(
    scope,
    part,
    (after, limit) => Prisma.sql`
      SELECT m.id::text AS id, m.name, m.color, m.created_at, m.updated_at
        FROM merchants m
       WHERE m.family_id = ${scope.familyId}::uuid AND m.kind = 'FamilyMerchant'
             ${after === null ? Prisma.empty : Prisma.sql`AND m.name > ${after.name}`}
       ORDER BY m.name
       LIMIT ${limit}`,
  );

export const MERCHANTS_CSV_HEADER = ["name", "color", "website_url"] as const;

/** merchants.csv: Sure's columns (MerchantImport's); Hearth keeps no website, so that cell is empty. */
export async function* merchantsCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(MERCHANTS_CSV_HEADER);
  for await (const rows of merchantBatches(scope, "merchants.csv")) {
    countRows(scope, "merchants.csv", rows.length);
    yield rows.map((m) => csvRow([m.name, m.color, null])).join("");
  }
}
