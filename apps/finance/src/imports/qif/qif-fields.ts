import type { ImportNumberFormat } from "@hearth/contracts";
import { NUMBER_FORMAT_SYMBOLS, parseDecimal } from "../parsing/number-format";
import type { Read } from "../statement-files/statement-row";

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/**
 * Whether every thousands delimiter in the whole part of `text` is followed by exactly three
 * digits ("28,500.00" is, "99,00" is not). Sure strips every comma, reading a European "-99,00"
 * as -9900; such an amount is refused here instead of being read a hundred times too large.
 */
function groupsThousands(text: string, format: ImportNumberFormat): boolean {
  const { separator, delimiter } = NUMBER_FORMAT_SYMBOLS[format];
  if (delimiter !== "," && delimiter !== ".") return true;
  const end = separator === "" ? -1 : text.indexOf(separator);
  const whole = end === -1 ? text : text.slice(0, end);
  for (let at = whole.indexOf(delimiter); at !== -1; at = whole.indexOf(delimiter, at + 1)) {
    if (!isDigit(whole[at - 1])) return false;
    let digits = 0;
    while (isDigit(whole[at + 1 + digits])) digits++;
    if (digits !== 3) return false;
  }
  return true;
}

/** Whether `text` holds only a sign, digits and the format's separator and delimiter (Sure's -?\d+\.?\d* once commas are gone: no symbols, no letters). */
function onlyNumberCharacters(text: string, format: ImportNumberFormat): boolean {
  const { separator, delimiter } = NUMBER_FORMAT_SYMBOLS[format];
  return [...text.trim()].every((char, at) => isDigit(char) || char === separator || char === delimiter || (at === 0 && (char === "-" || char === "+")));
}

/** A QIF amount (T or U: "-1,234.56") per the import's number_format, as plain decimal text signed as the file signs it (money out negative). */
export function readQifAmount(text: string, format: ImportNumberFormat): Read<string> {
  const parsed = parseDecimal(text, format);
  if (parsed.ok && onlyNumberCharacters(text, format) && groupsThousands(text, format)) return { ok: true, value: parsed.decimal };
  if (!parsed.ok && parsed.reason === "out_of_range") return { ok: false, message: "Amount is too large" };
  return { ok: false, message: `Amount is not a number in the format ${format}` };
}

export interface QifCategory {
  /** The category's name ("" for none): a "Parent:Child" category's child. */
  category: string;
  /** A "Parent:Child" category's parent, made with it (Sure's CategoryMapping#create_mappable!). */
  parent: string | null;
  tags: string[];
}

/**
 * Sure's QifParser.parse_category_and_tags on an L field, and its CategoryMapping on the
 * category: "[Account]" is a transfer (no category), "--Split--" Quicken's placeholder for a
 * split (none); "Category/Tag1:Tag2" carries tags; "Parent:Child" is the child category under its
 * parent (split at the first colon, as Sure does).
 */
export function qifCategoryOf(field: string): QifCategory {
  const text = field.trim();
  if (text === "" || text.startsWith("[") || text.toLowerCase() === "--split--") return { category: "", parent: null, tags: [] };
  const slash = text.indexOf("/");
  const name = (slash === -1 ? text : text.slice(0, slash)).trim();
  const tags =
    slash === -1
      ? []
      : text
          .slice(slash + 1)
          .split(":")
          .map((tag) => tag.trim())
          .filter((tag) => tag !== "");
  const colon = name.indexOf(":");
  if (colon === -1) return { category: name, parent: null, tags };
  const parent = name.slice(0, colon).trim();
  const child = name.slice(colon + 1).trim();
  if (parent === "" || child === "") return { category: parent || child, parent: null, tags };
  return { category: child, parent, tags };
}
