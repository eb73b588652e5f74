/**
 * Calendar arithmetic on plain days ("YYYY-MM-DD"), with no clock and no timezone: the family's
 * "today" is already a day in its timezone, so every period is computed from that text alone.
 */

export interface Day {
  year: number;
  /** 1 to 12. */
  month: number;
  /** 1 to 31. */
  day: number;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Reads "2026-11-15"; throws on anything that is not a real calendar day. */
export function parseDay(text: string): Day {
  const match = DAY_TEXT.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a day (YYYY-MM-DD)`);
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (day.month < 1 || day.month > 12 || day.day < 1 || day.day > daysInMonth(day.year, day.month)) {
    throw new RangeError(`"${text}" is not a calendar day`);
  }
  return day;
}

export function dayText({ year, month, day }: Day): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The day `count` days after `text` (negative: before). UTC has no daylight saving, so a day is always 24 hours. */
export function addDays(text: string, count: number): string {
  const { year, month, day } = parseDay(text);
  const shifted = new Date(Date.UTC(year, month - 1, day) + count * MS_PER_DAY);
  return dayText({ year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() });
}

/** The month `count` months after year/month (negative: before), e.g. (2026, 1, -1) → 2025-12. */
export function addMonths(year: number, month: number, count: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + count;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function firstOfMonth(year: number, month: number): string {
  return dayText({ year, month, day: 1 });
}

export function lastOfMonth(year: number, month: number): string {
  return dayText({ year, month, day: daysInMonth(year, month) });
}

/** 1 (Monday) to 7 (Sunday), as ISO 8601 numbers weekdays. */
export function isoWeekday(text: string): number {
  const { year, month, day } = parseDay(text);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The Monday on or before the day: weeks start on Monday (ISO 8601), whatever the locale. */
export function mondayOf(text: string): string {
  return addDays(text, 1 - isoWeekday(text));
}
