// Budget periods as Sure's Budget.period_for and Family#custom_month_start_for give them: a
// period starts on the family's month_start_day (1..28) and ends the day before the next start.
// Finance makes budgets of them and the assistant names them: one calculation for both.

export interface BudgetPeriod {
  /** The first day, ISO (YYYY-MM-DD). */
  start: string;
  /** The last day, ISO. */
  end: string;
}

const two = (value: number) => String(value).padStart(2, "0");
const iso = (year: number, month: number, day: number) => `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;

/** The (year, month) `months` after (year, month). */
function shifted(year: number, month: number, months: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!);

/** The day before (year, month, day), ISO: before the 1st comes the last day of the month before. */
function dayBefore(year: number, month: number, day: number): string {
  if (day > 1) return iso(year, month, day - 1);
  const before = shifted(year, month, -1);
  return iso(before.year, before.month, daysIn(before.year, before.month));
}

/** The period that contains `date` (ISO) for a family whose months start on `monthStartDay`. */
export function periodContaining(date: string, monthStartDay: number): BudgetPeriod {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const first = day >= monthStartDay ? { year, month } : shifted(year, month, -1);
  const next = shifted(first.year, first.month, 1);
  return { start: iso(first.year, first.month, monthStartDay), end: dayBefore(next.year, next.month, monthStartDay) };
}

/** The period `months` before (negative) or after the one starting on `start`, keeping its start day. */
export function periodShifted(start: string, months: number): BudgetPeriod {
  const [year, month, day] = start.split("-").map(Number) as [number, number, number];
  const moved = shifted(year, month, months);
  return periodContaining(iso(moved.year, moved.month, day), day);
}

/** The period starting in `month` (YYYY-MM) for a family whose months start on `monthStartDay`. */
export const periodOfMonth = (month: string, monthStartDay: number): BudgetPeriod => periodContaining(`${month}-${two(monthStartDay)}`, monthStartDay);
