import { describe, expect, it } from "vitest";
import { periodContaining, periodOfMonth, periodShifted } from "../src/budget-periods";

// Sure's Budget.period_for with Family#custom_month_start_for: the period starts on the family's
// month start day and ends the day before the next start.
describe("budget periods", () => {
  it("are calendar months when months start on the 1st, February's length by the year", () => {
    expect(periodContaining("2024-02-10", 1)).toEqual({ start: "2024-02-01", end: "2024-02-29" });
    expect(periodContaining("2025-02-28", 1)).toEqual({ start: "2025-02-01", end: "2025-02-28" });
    expect(periodContaining("2100-02-01", 1)).toEqual({ start: "2100-02-01", end: "2100-02-28" });
    expect(periodContaining("2000-02-01", 1)).toEqual({ start: "2000-02-01", end: "2000-02-29" });
    expect(periodContaining("2025-12-31", 1)).toEqual({ start: "2025-12-01", end: "2025-12-31" });
  });

  it("start on the family's day: a date before it belongs to the period begun the month before", () => {
    expect(periodContaining("2025-01-14", 15)).toEqual({ start: "2024-12-15", end: "2025-01-14" });
    expect(periodContaining("2025-01-15", 15)).toEqual({ start: "2025-01-15", end: "2025-02-14" });
    expect(periodContaining("2024-03-27", 28)).toEqual({ start: "2024-02-28", end: "2024-03-27" });
  });

  it("move by months keeping the start day, and name a month's period", () => {
    expect(periodShifted("2024-12-15", 1)).toEqual({ start: "2025-01-15", end: "2025-02-14" });
    expect(periodShifted("2025-01-01", -13)).toEqual({ start: "2023-12-01", end: "2023-12-31" });
    expect(periodOfMonth("2024-12", 15)).toEqual({ start: "2024-12-15", end: "2025-01-14" });
  });
});
