import { formatMoney } from "@hearth/contracts";
import type { FamilyFacts } from "../assistant-types";
import { parseDay } from "./calendar";

/**
 * How figures and days are written in answers: money from integer minor units with the contracts'
 * formatMoney, days with Intl in the family's locale. A locale Intl does not know falls back to
 * en-US rather than failing the answer.
 */
export interface Wording {
  locale: string;
  /** The family's currency, for amounts that carry none of their own. */
  currency: string;
}

const FALLBACK_LOCALE = "en-US";

export function wordingOf(family: FamilyFacts): Wording {
  return { locale: usableLocale(family.locale), currency: family.currency };
}

function usableLocale(locale: string): string {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : FALLBACK_LOCALE;
  } catch {
    return FALLBACK_LOCALE;
  }
}

/** "$1,234.56" from 123456 cents. */
export function moneyText(cents: number, currency: string, wording: Wording): string {
  return formatMoney(cents, currency, wording.locale);
}

/** Days are calendar days: formatted at UTC midnight so no timezone can move them. */
function utcDate(day: string): Date {
  const { year, month, day: date } = parseDay(day);
  return new Date(Date.UTC(year, month - 1, date));
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(locale: string, withYear: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withYear}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", ...(withYear ? { year: "numeric" } : {}), timeZone: "UTC" });
    if (dayFormats.size < 1_000) dayFormats.set(key, format);
  }
  return format;
}

/** "Oct 1 – 31, 2026" (en-US) or "1–31 Oct 2026" (en-GB); a single day as "Oct 1, 2026". */
export function dayRangeText(start: string, end: string, wording: Wording): string {
  const format = dayFormat(wording.locale, true);
  return start === end ? format.format(utcDate(start)) : format.formatRange(utcDate(start), utcDate(end));
}

/** "Dec 3" (en-US) or "3 Dec" (en-GB): a day in the coming weeks. */
export function shortDayText(day: string, wording: Wording): string {
  return dayFormat(wording.locale, false).format(utcDate(day));
}

/** "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
