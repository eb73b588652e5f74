import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import type { FinanceTx } from "../../db";
import type { CategoryRowValues } from "../parsing/row-types";
import { createCategories } from "./catalog-queries";
import { familyCategoriesWithParents, updateCategories } from "./category-import-queries";
import { importRows } from "./import-row-queries";
import { PublishError } from "./publish-error";
import type { PublishTarget } from "./transaction-import-publisher";

export interface CategoryPublishOutcome {
  categories_created: number;
  categories_updated: number;
}

type Classification = "income" | "expense";

export interface CategoryFields {
  color: string;
  icon: string;
  classification: Classification;
  parent: string | null;
}

/** A category as the import leaves it. New ones lack what their parent or a default gives them. */
interface CategoryState {
  name: string;
  color: string | null;
  icon: string | null;
  classification: Classification | null;
  parent: string | null;
  /** As the family had it before the import; null for a category the import makes. */
  before: CategoryFields | null;
}

interface CategoryRow {
  rowNumber: number;
  values: CategoryRowValues;
}

/**
 * Publishes a CategoryImport as Sure's CategoryImport#import! does, inside the caller's
 * transaction: each row's category is found by name or made, takes the row's colour, icon and
 * classification (else keeps its own), and is made top-level; a parent a row names is made when
 * missing. Then each category goes under the parent its row names. Categories nest one level
 * deep (Sure's category_level_limit): a parent that is itself a subcategory, or a category with
 * subcategories given a parent, fails the import naming the row. Unlike Sure, a subcategory
 * keeps its own colour (Hearth's categories do); a new one without a colour or classification
 * takes its parent's, as categories.create gives them.
 */
export async function publishCategoryImport(
  tx: FinanceTx,
  target: PublishTarget,
  onProgress: (rowsDone: number) => Promise<void>,
): Promise<CategoryPublishOutcome> {
  const { familyId } = target;
  const rows = await categoryRows(tx, target.id);
  const states = await familyCategories(tx, familyId);
  const stateOf = (name: string): CategoryState => {
    let state = states.get(name);
    if (!state) {
      state = { name, color: null, icon: null, classification: null, parent: null, before: null };
      states.set(name, state);
    }
    return state;
  };

  // Sure's first pass: attributes, every row's category top-level, missing parents made.
  for (const { values } of rows) {
    const state = stateOf(values.name);
    state.color = values.color ?? state.color;
    state.icon = values.icon ?? state.icon;
    state.classification = values.classification ?? state.classification;
    state.parent = null;
    if (values.parent !== null) stateOf(values.parent);
  }
  // Its second pass: each category under the parent its (last) row names.
  const lastRowOf = new Map<string, number>();
  for (const { rowNumber, values } of rows) {
    if (values.parent === values.name) throw new PublishError(`Row ${rowNumber}: Category '${values.name}' cannot be its own parent`);
    stateOf(values.name).parent = values.parent;
    lastRowOf.set(values.name, rowNumber);
  }
  checkOneLevelDeep(rows, states, lastRowOf);

  const { created, changed } = finalFields(states);
  if (created.length > 0) {
    // A name another request took meanwhile is updated below like one the family had.
    await createCategories(
      tx,
      created.map(([name, fields]) => ({
        familyId,
        name,
        color: fields.color,
        icon: fields.icon,
        classification: fields.classification,
        importId: target.id,
      })),
    );
  }
  const writes = [...created.filter(([, fields]) => fields.parent !== null), ...changed];
  if (writes.length > 0) await updateCategories(tx, familyId, writes);
  await onProgress(rows.length);
  return { categories_created: created.length, categories_updated: changed.length };
}

/** The rows that passed their checks, in file order. */
async function categoryRows(tx: FinanceTx, importId: string): Promise<CategoryRow[]> {
  const rows = await importRows(tx, importId);
  return rows.flatMap((row) => (row.values === null ? [] : [{ rowNumber: row.rowNumber, values: row.values as unknown as CategoryRowValues }]));
}

/** Every category of the family by name, with its parent's name. */
async function familyCategories(tx: FinanceTx, familyId: string): Promise<Map<string, CategoryState>> {
  const rows = await familyCategoriesWithParents(tx, familyId);
  return new Map(
    rows.map((row) => {
      const before: CategoryFields = { color: row.color, icon: row.icon, classification: row.classification, parent: row.parent?.name ?? null };
      return [row.name, { name: row.name, ...before, before }];
    }),
  );
}

/**
 * Sure's category_level_limit on the categories as the import leaves them, blamed on the row
 * that gave a category its parent (each category's last row decides it). The family's
 * categories nested one level before the import, so any deeper nesting runs through such a row.
 */
function checkOneLevelDeep(rows: CategoryRow[], states: Map<string, CategoryState>, lastRowOf: Map<string, number>): void {
  const childrenOf = new Map<string, string[]>();
  for (const state of states.values()) {
    if (state.parent !== null) childrenOf.set(state.parent, [...(childrenOf.get(state.parent) ?? []), state.name]);
  }
  for (const { rowNumber, values } of rows) {
    if (values.parent === null || lastRowOf.get(values.name) !== rowNumber) continue;
    const grandparent = states.get(values.parent)?.parent ?? null;
    if (grandparent !== null) {
      throw new PublishError(
        `Row ${rowNumber}: '${values.name}' cannot be a subcategory of '${values.parent}', which is itself a subcategory of '${grandparent}' (categories nest one level deep)`,
      );
    }
    const children = (childrenOf.get(values.name) ?? []).sort();
    if (children.length > 0) {
      const named = children.slice(0, 3).map((child) => `'${child}'`);
      throw new PublishError(
        `Row ${rowNumber}: '${values.name}' has subcategories (${named.join(", ")}${children.length > 3 ? ", ..." : ""}) and cannot be a subcategory of '${values.parent}' (categories nest one level deep)`,
      );
    }
  }
}

/**
 * What each category ends with: a new one without colour or classification takes its parent's
 * (else the default colour and "expense"), without an icon the one its name suggests. Answers
 * the categories to make and the family's that change.
 */
function finalFields(states: Map<string, CategoryState>) {
  const resolved = new Map<string, CategoryFields>();
  const resolve = (state: CategoryState): CategoryFields => {
    const known = resolved.get(state.name);
    if (known) return known;
    const parent = state.parent === null ? null : states.get(state.parent);
    const inherited = parent ? resolve(parent) : null;
    const fields: CategoryFields = {
      color: state.color ?? inherited?.color ?? DEFAULT_CATEGORY_COLOR,
      icon: state.icon ?? suggestIcon(state.name),
      classification: state.classification ?? inherited?.classification ?? "expense",
      parent: state.parent,
    };
    resolved.set(state.name, fields);
    return fields;
  };
  const created: [string, CategoryFields][] = [];
  const changed: [string, CategoryFields][] = [];
  for (const state of states.values()) {
    const fields = resolve(state);
    if (state.before === null) created.push([state.name, fields]);
    else if (!sameFields(state.before, fields)) changed.push([state.name, fields]);
  }
  return { created, changed };
}

function sameFields(a: CategoryFields, b: CategoryFields): boolean {
  return a.color === b.color && a.icon === b.icon && a.classification === b.classification && a.parent === b.parent;
}
