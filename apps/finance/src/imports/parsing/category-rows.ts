import { HexColorSchema, type ImportRowFields } from "@hearth/contracts";
import { CATEGORY_HEADERS } from "./field-headers";
import { unguardedText } from "./formula-guard";
import { cellOf } from "./headers";
import { checkLength, checkRequired } from "./row-checks";
import { emptyFields, type CandidateRow, type CategoryRowValues, type RowContext, type RowError, type SourceRow } from "./row-types";

/** Hearth's category limits (CreateCategoryBodySchema). */
const NAME_MAX = 100;
const ICON = /^[a-z0-9-]{1,50}$/;

/**
 * A CategoryImport row (Sure's template: name*, color, parent_category, lucide_icon). Colour,
 * icon and classification are checked as Hearth's categories take them; a category cannot be
 * its own parent (Sure's own_parent, which Sure finds only while publishing).
 */
export function categoryRow(row: SourceRow, context: RowContext): CandidateRow<CategoryRowValues> {
  const read = (headers: readonly string[]) => cellOf(row.record, row.index, headers) ?? "";
  const name = unguardedText(read(CATEGORY_HEADERS.name));
  const color = read(CATEGORY_HEADERS.color);
  const parent = unguardedText(read(CATEGORY_HEADERS.parent));
  const icon = unguardedText(read(CATEGORY_HEADERS.icon));
  const classification = read(CATEGORY_HEADERS.classification).toLowerCase();
  const fields: ImportRowFields = { ...emptyFields(), name, currency: context.defaultCurrency };
  const errors: RowError[] = [];

  if (checkRequired(name, "name", "Name", errors)) checkLength(name, NAME_MAX, "name", "Name", errors);
  checkLength(parent, NAME_MAX, "category_parent", "Parent category", errors);
  if (color !== "" && !HexColorSchema.safeParse(color).success) errors.push({ field: "category_color", message: "Color must be a hex colour like #4da568" });
  if (icon !== "" && !ICON.test(icon)) errors.push({ field: "category_icon", message: "Icon must be a Lucide icon name like coffee or shopping-cart" });
  if (classification !== "" && classification !== "income" && classification !== "expense") {
    errors.push({ field: "category_classification", message: "Classification must be income or expense" });
  }
  if (name !== "" && parent === name) errors.push({ field: "category_parent", message: `Category '${name}' cannot be its own parent` });

  if (errors.length > 0) return { row_number: row.rowNumber, fields, errors, values: null };
  return {
    row_number: row.rowNumber,
    fields,
    errors,
    values: {
      name,
      color: color === "" ? null : color,
      parent: parent === "" ? null : parent,
      icon: icon === "" ? null : icon,
      classification: classification === "" ? null : (classification as "income" | "expense"),
    },
  };
}
