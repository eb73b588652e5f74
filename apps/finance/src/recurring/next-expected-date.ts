/**
 * The calendar arithmetic of recurring transactions, on ISO dates (the ledger's UTC calendar).
 * recurring-sql.ts computes the same in SQL for many rows at once; these are the
 * reference its tests hold it to, and what the API uses for a single row.
 */

function partsOf(isoDate: string): [number, number, number] {
  const [year, month, day] = isoDate.split("-").map(Number) as [number, number, number];
  return [year, month, day];
}

function isoOf(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Days in a month (1-12): 28 to 31, Feb 29 in leap years. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `day` of the month `months` after (before, when negative) the month of `isoDate`, or that month's last day when it has fewer days. */
function dayOfMonthShifted(isoDate: string, months: number, day: number): string {
  const [year, month] = partsOf(isoDate);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return isoOf(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/**
 * Sure's calculate_next_expected_date: the expected day of the month after the last occurrence,
 * or that month's last day when it has no such day (31 → Feb 28 or 29). December goes to January.
 */
export function nextExpectedDate(lastOccurrence: string, expectedDay: number): string {
  return dayOfMonthShifted(lastOccurrence, 1, expectedDay);
}

/** The same day `months` earlier, the month's last day when that day does not exist (Rails' `3.months.ago` on a date). */
export function monthsBefore(isoDate: string, months: number): string {
  return dayOfMonthShifted(isoDate, -months, partsOf(isoDate)[2]);
}
