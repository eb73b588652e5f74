// ISO calendar dates (YYYY-MM-DD) as day numbers (days since 1970-01-01), without Date objects:
// the balance calculator walks thousands of days and parses every entry's date, so this stays
// integer arithmetic (Howard Hinnant's days_from_civil / civil_from_days, proleptic Gregorian).

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TWO_DIGITS = Array.from({ length: 32 }, (_, n) => String(n).padStart(2, "0"));
const CHAR_0 = 48;
const CHAR_DASH = 45;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Day number of a civil date; month 1..12, day 1..31. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Civil date of a day number. */
export function civilFromDays(dayNumber: number): { year: number; month: number; day: number } {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function digitAt(text: string, index: number): number {
  const digit = text.charCodeAt(index) - CHAR_0;
  return digit >= 0 && digit <= 9 ? digit : NaN;
}

/** Day number of a strict ISO date `YYYY-MM-DD`, or NaN when the text is not a real calendar date. */
export function tryIsoToDayNumber(iso: string): number {
  if (typeof iso !== "string" || iso.length !== 10 || iso.charCodeAt(4) !== CHAR_DASH || iso.charCodeAt(7) !== CHAR_DASH) return NaN;
  const year = digitAt(iso, 0) * 1000 + digitAt(iso, 1) * 100 + digitAt(iso, 2) * 10 + digitAt(iso, 3);
  const month = digitAt(iso, 5) * 10 + digitAt(iso, 6);
  const day = digitAt(iso, 8) * 10 + digitAt(iso, 9);
  // NaN fails every comparison, so a non-digit anywhere lands here too.
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return NaN;
  return daysFromCivil(year, month, day);
}

/** Day number of a strict ISO date `YYYY-MM-DD`; throws on anything else. */
export function isoToDayNumber(iso: string): number {
  const dayNumber = tryIsoToDayNumber(iso);
  if (Number.isNaN(dayNumber)) throw new Error(`Invalid ISO date: ${JSON.stringify(iso)}`);
  return dayNumber;
}

/** ISO date `YYYY-MM-DD` of a day number (years 0000..9999). */
export function dayNumberToIso(dayNumber: number): string {
  const { year, month, day } = civilFromDays(dayNumber);
  const yyyy = year >= 1000 ? String(year) : String(year).padStart(4, "0");
  return `${yyyy}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}`;
}
