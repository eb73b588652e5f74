/** Today's date (YYYY-MM-DD) in a timezone; UTC when none is set. */
export function todayIn(timezone: string | null, now = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: timezone ?? "UTC", year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}
