import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../../categories/default-categories";
import { TAG_COLORS } from "../../../tags/tag-colors";
import type { SureCategoryValues, SureMerchantValues, SureTagValues } from "../../ndjson";
import { PublishError } from "../publish-error";
import { column, inBatches, type SurePublishContext } from "./sure-publish-context";

type Table = "categories" | "tags" | "merchants";

/** The family's rows of `table` under the given names (names are unique per family). */
async function existingByName<Row extends { id: string; name: string }>(context: SurePublishContext, table: Table, names: string[]): Promise<Map<string, Row>> {
  if (names.length === 0) return new Map();
  const extra = table === "categories" ? ", parent_id::text AS parent_id" : "";
  const rows = await context.tx.$queryRawUnsafe<Row[]>(
    `SELECT id::text AS id, name${extra} FROM ${table} WHERE family_id = $1::uuid AND name = ANY($2::text[])`,
    context.familyId,
    names,
  );
  return new Map(rows.map((row) => [row.name, row]));
}

/** Splits records into those the family has by name (mapped to its row) and new ones (given ids). */
function mapOrMake<T extends { source_id: string; name: string }>(
  context: SurePublishContext,
  kind: Table,
  records: readonly T[],
  existing: Map<string, { id: string }>,
): (T & { id: string })[] {
  const made: (T & { id: string })[] = [];
  for (const record of records) {
    const found = existing.get(record.name);
    const id = found?.id ?? context.newId();
    context.ids.set(kind, record.source_id, id);
    if (!found) made.push({ ...record, id });
  }
  return made;
}

const quoted = (name: string) => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);

/**
 * import_categories: top-level categories first, then subcategories under their parents' new
 * ids. A name the family has is its category (Hearth families start with default categories a
 * household's file usually shares; Sure's preflight would refuse the file instead), and is left
 * as it is. Categories nest two levels: a parent that is a subcategory fails the import.
 */
export async function publishCategories(context: SurePublishContext, records: readonly SureCategoryValues[]) {
  const existing = await existingByName<{ id: string; name: string; parent_id: string | null }>(
    context,
    "categories",
    records.map((record) => record.name),
  );
  const made = mapOrMake(context, "categories", records, existing);
  const bySourceId = new Map(records.map((record) => [record.source_id, record]));
  for (const category of made) {
    if (category.parent_id === null) continue;
    const parent = bySourceId.get(category.parent_id)!;
    const parentIsSubcategory = existing.has(parent.name) ? existing.get(parent.name)!.parent_id !== null : parent.parent_id !== null;
    if (category.parent_id === category.source_id) throw new PublishError(`Line ${category.line} Category ${quoted(category.name)} cannot be its own parent.`);
    if (parentIsSubcategory) {
      throw new PublishError(
        `Line ${category.line} Category ${quoted(category.name)}: categories nest two levels at most, and its parent ${quoted(parent.name)} is a subcategory.`,
      );
    }
  }
  // Parents first: a subcategory's row names its parent's.
  const ordered = [...made.filter((category) => category.parent_id === null), ...made.filter((category) => category.parent_id !== null)];
  await inBatches(
    context,
    ordered,
    (batch) =>
      context.tx.$executeRaw`
      INSERT INTO categories (id, family_id, name, color, icon, classification, parent_id, import_id, created_at, updated_at)
      SELECT t.id, ${context.familyId}::uuid, t.name, t.color, t.icon, t.classification::"CategoryClassification", t.parent_id, ${context.importId}::uuid, now(), now()
        FROM unnest(${column(batch, (c) => c.id)}::uuid[], ${column(batch, (c) => c.name)}::text[],
                    ${column(batch, (c) => c.color ?? DEFAULT_CATEGORY_COLOR)}::text[], ${column(batch, (c) => c.lucide_icon ?? suggestIcon(c.name))}::text[],
                    ${column(batch, (c) => c.classification)}::text[], ${column(batch, (c) => context.ids.get("categories", c.parent_id))}::uuid[])
             WITH ORDINALITY AS t(id, name, color, icon, classification, parent_id, ordinal)
       ORDER BY t.ordinal`,
  );
  await context.linesDone(records.length - made.length);
  if (records.length > 0) {
    // The household brought its categories: Hearth's defaults are not added on its first category list.
    await context.tx.$executeRaw`INSERT INTO category_defaults_seeded (family_id, seeded_at) VALUES (${context.familyId}::uuid, now()) ON CONFLICT DO NOTHING`;
  }
  return { categories: made.length, categories_reused: records.length - made.length };
}

/** import_tags: a tag without a colour takes the palette's first (Sure keeps replays deterministic so); a name the family has is its tag. */
export async function publishTags(context: SurePublishContext, records: readonly SureTagValues[]) {
  const existing = await existingByName(
    context,
    "tags",
    records.map((record) => record.name),
  );
  const made = mapOrMake(context, "tags", records, existing);
  await inBatches(
    context,
    made,
    (batch) =>
      context.tx.$executeRaw`
      INSERT INTO tags (id, family_id, name, color, import_id, created_at, updated_at)
      SELECT t.id, ${context.familyId}::uuid, t.name, t.color, ${context.importId}::uuid, now(), now()
        FROM unnest(${column(batch, (t) => t.id)}::uuid[], ${column(batch, (t) => t.name)}::text[], ${column(batch, (t) => t.color ?? TAG_COLORS[0])}::text[])
             WITH ORDINALITY AS t(id, name, color, ordinal)
       ORDER BY t.ordinal`,
  );
  await context.linesDone(records.length - made.length);
  return { tags: made.length, tags_reused: records.length - made.length };
}

/** import_merchants: the family's own merchants (Hearth keeps no logo or website); a name the family has is its merchant. */
export async function publishMerchants(context: SurePublishContext, records: readonly SureMerchantValues[]) {
  const existing = await existingByName(
    context,
    "merchants",
    records.map((record) => record.name),
  );
  const made = mapOrMake(context, "merchants", records, existing);
  await inBatches(
    context,
    made,
    (batch) =>
      context.tx.$executeRaw`
      INSERT INTO merchants (id, family_id, kind, name, color, import_id, created_at, updated_at)
      SELECT t.id, ${context.familyId}::uuid, 'FamilyMerchant', t.name, t.color, ${context.importId}::uuid, now(), now()
        FROM unnest(${column(batch, (m) => m.id)}::uuid[], ${column(batch, (m) => m.name)}::text[], ${column(batch, (m) => m.color)}::text[])
             WITH ORDINALITY AS t(id, name, color, ordinal)
       ORDER BY t.ordinal`,
  );
  await context.linesDone(records.length - made.length);
  return { merchants: made.length, merchants_reused: records.length - made.length };
}
