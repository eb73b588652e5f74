import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../../categories/default-categories";
import { TAG_COLORS } from "../../../tags/tag-colors";
import type { SureCategoryValues, SureMerchantValues, SureTagValues } from "../../ndjson";
import { PublishError } from "../publish-error";
import {
  familyRowsNamed,
  insertCategories,
  insertMerchants,
  insertTags,
  markCategoriesSeeded,
  type CatalogTable,
  type NewCategory,
  type NewTag,
} from "./sure-catalog-queries";
import { inBatches, type SurePublishContext } from "./sure-publish-context";

/** The family's rows of `table` under the given names (names are unique per family). */
async function existingByName<Row extends { id: string; name: string }>(
  context: SurePublishContext,
  table: CatalogTable,
  names: string[],
): Promise<Map<string, Row>> {
  if (names.length === 0) return new Map();
  const rows = await familyRowsNamed<Row>(context.tx, context.familyId, table, names);
  return new Map(rows.map((row) => [row.name, row]));
}

/** Splits records into those the family has by name (mapped to its row) and new ones (given ids). */
function mapOrMake<T extends { source_id: string; name: string }>(
  context: SurePublishContext,
  kind: CatalogTable,
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
  const rows = ordered.map((category): NewCategory => ({
    id: category.id,
    name: category.name,
    color: category.color ?? DEFAULT_CATEGORY_COLOR,
    icon: category.lucide_icon ?? suggestIcon(category.name),
    classification: category.classification,
    parentId: context.ids.get("categories", category.parent_id),
  }));
  await inBatches(context, rows, (batch) => insertCategories(context.tx, context.familyId, context.importId, batch));
  await context.linesDone(records.length - made.length);
  // The household brought its categories: Hearth's defaults are not added on its first category list.
  if (records.length > 0) await markCategoriesSeeded(context.tx, context.familyId);
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
  const rows = made.map((tag): NewTag => ({ id: tag.id, name: tag.name, color: tag.color ?? TAG_COLORS[0] }));
  await inBatches(context, rows, (batch) => insertTags(context.tx, context.familyId, context.importId, batch));
  await context.linesDone(records.length - made.length);
  return { tags: made.length, tags_reused: records.length - made.length };
}

/**
 * import_merchants: the family's own merchants with their logo_url, and website_url too (Sure's
 * importer drops it; Hearth keeps it, so its export imports back whole); a name the family has is its merchant.
 */
export async function publishMerchants(context: SurePublishContext, records: readonly SureMerchantValues[]) {
  const existing = await existingByName(
    context,
    "merchants",
    records.map((record) => record.name),
  );
  const made = mapOrMake(context, "merchants", records, existing);
  await inBatches(context, made, (batch) => insertMerchants(context.tx, context.familyId, context.importId, batch));
  await context.linesDone(records.length - made.length);
  return { merchants: made.length, merchants_reused: records.length - made.length };
}
