// Budget periods as Sure's Budget.period_for and Family#custom_month_start_for give them: a
// period starts on the family's month_start_day (1..28) and ends the day before the next start.
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export interface BudgetPeriod {
  start: string;
  end: string;
}

function iso(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The start of the period `months` after the one starting in (year, month). */
function shifted(year: number, month: number, months: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** The period that contains `date` (ISO) for a family whose months start on `monthStartDay`. */
export function periodContaining(date: string, monthStartDay: number): BudgetPeriod {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const first = day >= monthStartDay ? { year, month } : shifted(year, month, -1);
  const next = shifted(first.year, first.month, 1);
  return { start: iso(first.year, first.month, monthStartDay), end: dayNumberToIso(isoToDayNumber(iso(next.year, next.month, monthStartDay)) - 1) };
}

/** The period `months` before (negative) or after the one starting on `start`, keeping its start day. */
export function periodShifted(start: string, months: number): BudgetPeriod {
  const [year, month, day] = start.split("-").map(Number) as [number, number, number];
  const moved = shifted(year, month, months);
  return periodContaining(iso(moved.year, moved.month, day), day);
}

function isWholeMonth({ start, end }: BudgetPeriod): boolean {
  return start.endsWith("-01") && periodContaining(start, 1).end === end;
}

/**
 * Sure's budget name: "November 2026" for a calendar month, else "Nov 05 - December 04, 2026"
 * (I18n budgets.name.custom_range: the start in the short format, the end in the long one).
 */
export function budgetNameOf(period: BudgetPeriod): string {
  const [startYear, startMonth, startDay] = period.start.split("-").map(Number) as [number, number, number];
  if (isWholeMonth(period)) return `${MONTHS[startMonth - 1]} ${startYear}`;
  const [endYear, endMonth, endDay] = period.end.split("-").map(Number) as [number, number, number];
  const short = `${MONTHS[startMonth - 1]!.slice(0, 3)} ${String(startDay).padStart(2, "0")}`;
  return `${short} - ${MONTHS[endMonth - 1]} ${String(endDay).padStart(2, "0")}, ${endYear}`;
}

/**
 * Sure's Budget.budget_date_valid?: a budget may start from the earlier of two years ago and the
 * month of the family's oldest entry, up to two years after the current period starts.
 */
export function budgetableRange(today: string, monthStartDay: number, oldestEntry: string | null): BudgetPeriod {
  const current = periodContaining(today, monthStartDay);
  const twoYearsAgo = periodContaining(today, 1).start.replace(/^\d{4}/u, (year) => String(Number(year) - 2).padStart(4, "0"));
  const oldestMonth = oldestEntry === null ? twoYearsAgo : periodContaining(oldestEntry, 1).start;
  return { start: oldestMonth < twoYearsAgo ? oldestMonth : twoYearsAgo, end: periodShifted(current.start, 24).start };
}
