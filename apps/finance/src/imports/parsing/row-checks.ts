import { CurrencyInputSchema, IMPORT_DATE_FORMATS, minorUnitDigits } from "@hearth/contracts";
import { yearsBefore } from "../../ledger/dates";
import { parseDateByFormat } from "./date-format";
import { minorUnitsOf, parseDecimal } from "./number-format";
import type { RowContext, RowError } from "./row-types";

/** Sure's Entry.min_supported_date: 30 years back. */
const SUPPORTED_YEARS = 30;

/** Sure's required_columns: "Date is required". */
export function checkRequired(value: string, field: string, label: string, errors: RowError[]): boolean {
  if (value !== "") return true;
  errors.push({ field, message: `${label} is required` });
  return false;
}

/** A length a later write would refuse, reported now with the row. */
export function checkLength(value: string, max: number, field: string, label: string, errors: RowError[]): boolean {
  if (value.length <= max) return true;
  errors.push({ field, message: `${label} is too long (maximum is ${max} characters)` });
  return false;
}

/**
 * Sure's date_valid: a date that is there must match the import's format exactly and fall
 * between 30 years ago and today. Answers the ISO date, or null (blank or refused).
 */
export function checkDate(text: string, context: RowContext, errors: RowError[], field = "date", label = "Date"): string | null {
  if (text === "") return null;
  const format = context.config.date_format;
  const date = parseDateByFormat(text, format);
  if (date === null) {
    errors.push({ field, message: `${label} must exactly match the format: ${format}` });
    return null;
  }
  if (Number(date.slice(0, 4)) < 1000) {
    // 28.03.18 read as %d.%m.%Y is the year 18: name the format that reads it, not the date range.
    const twoDigitYears = format.replace("%Y", "%y");
    const hint = twoDigitYears !== format && twoDigitYears in IMPORT_DATE_FORMATS ? `; a two-digit year reads with ${twoDigitYears}` : "";
    errors.push({ field, message: `${label} must exactly match the format: ${format} (its year has fewer than four digits${hint})` });
    return null;
  }
  const earliest = yearsBefore(context.today, SUPPORTED_YEARS);
  if (date < earliest || date > context.today) {
    errors.push({ field, message: `${label} must be between ${earliest} and ${context.today}` });
    return null;
  }
  return date;
}

/** Sure's currency checks: present, and a code Money knows (any case, as Money::Currency reads it). */
export function checkCurrency(text: string, errors: RowError[]): string | null {
  if (text === "") {
    errors.push({ field: "currency", message: "Currency can't be blank" });
    return null;
  }
  const parsed = CurrencyInputSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  errors.push({ field: "currency", message: "Currency is not a valid currency code" });
  return null;
}

/** A number cell as plain decimal text ("" when blank or refused, as Sure's sanitize_number), with why it was refused. */
export function readNumber(cell: string, context: RowContext, field: string, label: string, errors: RowError[]): string {
  const parsed = parseDecimal(cell, context.config.number_format);
  if (parsed.ok) return parsed.decimal;
  if (parsed.reason === "invalid") errors.push({ field, message: `${label} is not a number in the format ${context.config.number_format}` });
  if (parsed.reason === "out_of_range") errors.push({ field, message: `${label} is too large` });
  return "";
}

/** Minor units of a read amount in `currency`, or null with the reason (too many decimals for it, or too large). */
export function checkMinorUnits(decimal: string, currency: string, field: string, label: string, errors: RowError[]): bigint | null {
  const digits = minorUnitDigits(currency);
  const units = minorUnitsOf(decimal, digits);
  if (units.ok) return units.minorUnits;
  errors.push({
    field,
    message: units.reason === "too_many_decimals" ? `${label} has more decimals than ${currency} allows (${digits})` : `${label} is too large`,
  });
  return null;
}
