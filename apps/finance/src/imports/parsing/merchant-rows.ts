import { HexColorSchema, type ImportRowFields } from "@hearth/contracts";
import { MERCHANT_HEADERS } from "./field-headers";
import { unguardedText } from "./formula-guard";
import { cellOf } from "./headers";
import { checkLength, checkRequired } from "./row-checks";
import { emptyFields, type CandidateRow, type MerchantRowValues, type RowContext, type RowError, type SourceRow } from "./row-types";

/** Hearth's merchant name limit (CreateMerchantBodySchema). */
const NAME_MAX = 200;
const WEBSITE_MAX = 255;

/** A MerchantImport row (Sure's template: name*, color, website_url). */
export function merchantRow(row: SourceRow, context: RowContext): CandidateRow<MerchantRowValues> {
  const read = (headers: readonly string[]) => cellOf(row.record, row.index, headers) ?? "";
  const name = unguardedText(read(MERCHANT_HEADERS.name));
  const color = read(MERCHANT_HEADERS.color);
  const website = read(MERCHANT_HEADERS.website);
  const fields: ImportRowFields = { ...emptyFields(), name, currency: context.defaultCurrency };
  const errors: RowError[] = [];

  if (checkRequired(name, "name", "Name", errors)) checkLength(name, NAME_MAX, "name", "Name", errors);
  if (color !== "" && !HexColorSchema.safeParse(color).success) errors.push({ field: "merchant_color", message: "Color must be a hex colour like #4da568" });
  checkLength(website, WEBSITE_MAX, "merchant_website", "Website url", errors);

  if (errors.length > 0) return { row_number: row.rowNumber, fields, errors, values: null };
  return { row_number: row.rowNumber, fields, errors, values: { name, color: color === "" ? null : color, website_url: website === "" ? null : website } };
}
