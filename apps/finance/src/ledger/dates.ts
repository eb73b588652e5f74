/** PostgreSQL `date` columns come back from Prisma as UTC midnights: these map them to ISO dates and back. */
export function isoDateOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function dateOf(isoDate: string): Date {
  return new Date(`${isoDate}T00:00:00.000Z`);
}

/** Today's date in UTC (the ledger's calendar). */
export function todayIso(now: Date = new Date()): string {
  return isoDateOf(now);
}

/** The ISO date `days` after (or before, when negative) `isoDate`. */
export function addDays(isoDate: string, days: number): string {
  const date = dateOf(isoDate);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDateOf(date);
}

/** A Prisma filter for dates between two optional ISO bounds (inclusive), or nothing. */
export function dateRange(start: string | undefined, end: string | undefined): { date?: { gte?: Date; lte?: Date } } {
  if (!start && !end) return {};
  return { date: { ...(start ? { gte: dateOf(start) } : {}), ...(end ? { lte: dateOf(end) } : {}) } };
}

/** The same day `years` earlier, the end of the month when that day does not exist (Feb 29), as Rails' `2.years.ago`. */
export function yearsBefore(isoDate: string, years: number): string {
  const [year, month, day] = isoDate.split("-").map(Number) as [number, number, number];
  const target = year - years;
  const lastDay = new Date(Date.UTC(target, month, 0)).getUTCDate();
  return `${String(target).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(day, lastDay)).padStart(2, "0")}`;
}
