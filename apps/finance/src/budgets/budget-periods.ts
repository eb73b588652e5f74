// Sure's rules about budget periods (their names, which ones may have a budget); the periods
// themselves are the contracts' (budget-periods.ts), shared with the assistant.
import { periodContaining, periodShifted, type BudgetPeriod } from "@hearth/contracts";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

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
