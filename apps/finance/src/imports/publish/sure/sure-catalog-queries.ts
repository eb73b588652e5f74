import type { FinanceTx } from "../../../db";
import type { SureCategoryValues, SureMerchantValues, SureTagValues } from "../../ndjson";
import { column } from "./sure-publish-context";

export type CatalogTable = "categories" | "tags" | "merchants";

/** A category to write: the file's, under its new id and its parent's, its colour and icon settled. */
export type NewCategory = Pick<SureCategoryValues, "name" | "classification"> & { id: string; color: string; icon: string; parentId: string | null };
/** A tag to write, its colour settled. */
export type NewTag = Pick<SureTagValues, "name"> & { id: string; color: string };
export type NewMerchant = Pick<SureMerchantValues, "name" | "color" | "website_url" | "logo_url"> & { id: string };

/** The family's rows of `table` under the given names (names are unique per family); a category with its parent's id. */
export function familyRowsNamed<Row extends { id: string; name: string }>(
  tx: FinanceTx,
  familyId: string,
  table: CatalogTable,
  names: string[],
): Promise<Row[]> {
  const extra = table === "categories" ? ", parent_id::text AS parent_id" : "";
  return tx.$queryRawUnsafe<Row[]>(`SELECT id::text AS id, name${extra} FROM ${table} WHERE family_id = $1::uuid AND name = ANY($2::text[])`, familyId, names);
}

/** Writes categories with the import's id, in the given order (a parent before its subcategories). */
export async function insertCategories(tx: FinanceTx, familyId: string, importId: string, batch: readonly NewCategory[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO categories (id, family_id, name, color, icon, classification, parent_id, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.name, t.color, t.icon, t.classification::"CategoryClassification", t.parent_id, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (c) => c.id)}::uuid[], ${column(batch, (c) => c.name)}::text[],
                  ${column(batch, (c) => c.color)}::text[], ${column(batch, (c) => c.icon)}::text[],
                  ${column(batch, (c) => c.classification)}::text[], ${column(batch, (c) => c.parentId)}::uuid[])
           WITH ORDINALITY AS t(id, name, color, icon, classification, parent_id, ordinal)
     ORDER BY t.ordinal`;
}

/** Records that the family has its categories: Hearth's defaults are not added on its first category list. */
export async function markCategoriesSeeded(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO category_defaults_seeded (family_id, seeded_at) VALUES (${familyId}::uuid, now()) ON CONFLICT DO NOTHING`;
}

export async function insertTags(tx: FinanceTx, familyId: string, importId: string, batch: readonly NewTag[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO tags (id, family_id, name, color, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, t.name, t.color, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (t) => t.id)}::uuid[], ${column(batch, (t) => t.name)}::text[], ${column(batch, (t) => t.color)}::text[])
           WITH ORDINALITY AS t(id, name, color, ordinal)
     ORDER BY t.ordinal`;
}

/** Writes the family's own merchants with the import's id. */
export async function insertMerchants(tx: FinanceTx, familyId: string, importId: string, batch: readonly NewMerchant[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO merchants (id, family_id, kind, name, color, website_url, logo_url, import_id, created_at, updated_at)
    SELECT t.id, ${familyId}::uuid, 'FamilyMerchant', t.name, t.color, t.website_url, t.logo_url, ${importId}::uuid, now(), now()
      FROM unnest(${column(batch, (m) => m.id)}::uuid[], ${column(batch, (m) => m.name)}::text[], ${column(batch, (m) => m.color)}::text[],
                  ${column(batch, (m) => m.website_url)}::text[], ${column(batch, (m) => m.logo_url)}::text[])
           WITH ORDINALITY AS t(id, name, color, website_url, logo_url, ordinal)
     ORDER BY t.ordinal`;
}
