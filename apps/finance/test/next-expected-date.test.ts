import { describe, expect, it } from "vitest";
import { daysInMonth, monthsBefore, nextExpectedDate } from "../src/recurring/next-expected-date";

describe("nextExpectedDate (Sure's calculate_next_expected_date)", () => {
  it("takes the expected day of the month after the last occurrence", () => {
    expect(nextExpectedDate("2026-04-15", 15)).toBe("2026-05-15");
    expect(nextExpectedDate("2026-04-15", 3)).toBe("2026-05-03");
    // The expected day, not the occurrence's own day: a late payment still points at the usual day.
    expect(nextExpectedDate("2026-04-28", 1)).toBe("2026-05-01");
  });

  it("clamps to the month's last day when it has no such day (recurring_transaction_test: handles end of month correctly)", () => {
    expect(nextExpectedDate("2025-01-31", 31)).toBe("2025-02-28");
    expect(nextExpectedDate("2026-03-31", 31)).toBe("2026-04-30");
    expect(nextExpectedDate("2026-05-31", 31)).toBe("2026-06-30");
    expect(nextExpectedDate("2026-01-15", 30)).toBe("2026-02-28");
    expect(nextExpectedDate("2026-02-28", 31)).toBe("2026-03-31");
  });

  it("gives February 29 in leap years only", () => {
    expect(nextExpectedDate("2024-01-31", 31)).toBe("2024-02-29");
    expect(nextExpectedDate("2024-01-29", 29)).toBe("2024-02-29");
    expect(nextExpectedDate("2023-01-29", 29)).toBe("2023-02-28");
    expect(nextExpectedDate("2100-01-29", 29)).toBe("2100-02-28"); // a century year that is no leap year
    expect(nextExpectedDate("2000-01-30", 30)).toBe("2000-02-29"); // one that is
  });

  it("goes from December to January of the next year", () => {
    expect(nextExpectedDate("2025-12-05", 5)).toBe("2026-01-05");
    expect(nextExpectedDate("2025-12-31", 31)).toBe("2026-01-31");
    expect(nextExpectedDate("2099-12-31", 31)).toBe("2100-01-31");
  });
});

describe("monthsBefore (Rails' n.months.ago on a date)", () => {
  it("keeps the day, or the month's last day when the earlier month is shorter", () => {
    expect(monthsBefore("2026-08-20", 3)).toBe("2026-05-20");
    expect(monthsBefore("2026-05-31", 3)).toBe("2026-02-28");
    expect(monthsBefore("2024-05-31", 3)).toBe("2024-02-29");
    expect(monthsBefore("2026-03-31", 1)).toBe("2026-02-28");
  });

  it("crosses into the previous year", () => {
    expect(monthsBefore("2026-02-15", 6)).toBe("2025-08-15");
    expect(monthsBefore("2026-01-31", 2)).toBe("2025-11-30");
    expect(monthsBefore("2026-01-01", 12)).toBe("2025-01-01");
  });
});

describe("daysInMonth", () => {
  it("counts 28 to 31 days", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => daysInMonth(2026, month))).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
  });
});
