import { IMPORT_DATE_FORMATS, type ImportDateFormat } from "@hearth/contracts";
import { yearsBefore } from "../../ledger/dates";
import { parseDateByFormat } from "../parsing/date-format";
import type { Read } from "../statement-files/statement-row";

/** Sure's Family::DATE_FORMATS, in its order: what Import.detect_date_format tries (the two-digit-year format is for CSV files only). */
const DETECTABLE_FORMATS = (Object.keys(IMPORT_DATE_FORMATS) as ImportDateFormat[]).filter((format) => format !== "%d/%m/%y");
/** QifImport's default and detection fallback: Quicken's US dates. */
export const QIF_DEFAULT_DATE_FORMAT: ImportDateFormat = "%m/%d/%Y";
/** Dates sampled for detection (Sure's first(50) unique). */
const SAMPLES = 50;

const isAsciiSpace = (char: string) => char === " " || char === "\t" || char === "\f" || char === "\v" || char === "\r" || char === "\n";
const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
const isLetter = (char: string) => (char >= "A" && char <= "Z") || (char >= "a" && char <= "z");

function hasFourDigitRun(text: string): boolean {
  let run = 0;
  for (const char of text) {
    run = isDigit(char) ? run + 1 : 0;
    if (run === 4) return true;
  }
  return false;
}

/**
 * Sure's QifParser.normalize_qif_date: Quicken's apostrophe before the year becomes the date's
 * separator ("6/ 4'20" → "6/4/20"), spaces go from numeric dates and shrink to one in month-name
 * dates ("26  Jan 2026"), and a two-digit year becomes 20yy, or 19yy when 20yy is after the
 * current year. Answers null for a blank date.
 */
export function normalizeQifDate(text: string, currentYear: number): string | null {
  let date = text.trim();
  if (date === "") return null;
  if (date.includes("'")) {
    const separator = [...date].find((char) => char === "/" || char === "." || char === "-") ?? "/";
    date = date.replaceAll("'", separator);
  }
  if ([...date].some(isLetter)) {
    let collapsed = "";
    for (const char of date) {
      if (!isAsciiSpace(char)) collapsed += char;
      else if (!collapsed.endsWith(" ")) collapsed += " ";
    }
    date = collapsed.trim();
  } else {
    date = [...date].filter((char) => !isAsciiSpace(char)).join("");
  }
  const end = date.length;
  if (!hasFourDigitRun(date) && end >= 4 && isDigit(date[end - 1]) && isDigit(date[end - 2]) && "/.- ".includes(date[end - 3]!)) {
    let year = 2000 + Number(date.slice(end - 2));
    if (year > currentYear) year -= 100;
    date = `${date.slice(0, end - 2)}${year}`;
  }
  return date;
}

/** A QIF D field read in `format` after Sure's normalising, as an ISO date. */
export function readQifDate(text: string, format: ImportDateFormat, currentYear: number): Read<string> {
  const normalized = normalizeQifDate(text, currentYear);
  const date = normalized === null ? null : parseDateByFormat(normalized, format);
  return date !== null ? { ok: true, value: date } : { ok: false, message: `Date must exactly match the format: ${format}` };
}

/**
 * Sure's Import.detect_date_format over a file's D fields (normalised): the format that reads
 * the most of them, then the most within 1970 to five years ahead. Where formats tie, Sure takes
 * the first of its list, which reads "04/06/2020" as 4 June; here QifImport's own default, US
 * dates, wins a tie it is part of (Quicken writes US dates, and date_format "%d/%m/%Y" asks for
 * the other reading). No date read at all: the default.
 */
export function detectQifDateFormat(dates: readonly string[], today: string): ImportDateFormat {
  const currentYear = Number(today.slice(0, 4));
  const samples = [...new Set(dates.map((date) => normalizeQifDate(date, currentYear)).filter((date): date is string => date !== null))].slice(0, SAMPLES);
  const latest = yearsBefore(today, -5);
  let best: { format: ImportDateFormat; parsed: number; reasonable: number } | null = null;
  for (const format of DETECTABLE_FORMATS) {
    let parsed = 0;
    let reasonable = 0;
    for (const sample of samples) {
      const date = parseDateByFormat(sample, format);
      if (date === null) continue;
      parsed++;
      if (date >= "1970-01-01" && date <= latest) reasonable++;
    }
    if (parsed === 0) continue;
    const better = best === null || parsed > best.parsed || (parsed === best.parsed && reasonable > best.reasonable);
    const tiePreferred = best !== null && parsed === best.parsed && reasonable === best.reasonable && format === QIF_DEFAULT_DATE_FORMAT;
    if (better || tiePreferred) best = { format, parsed, reasonable };
  }
  return best?.format ?? QIF_DEFAULT_DATE_FORMAT;
}
