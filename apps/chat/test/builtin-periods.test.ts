import { describe, expect, it } from "vitest";
import { addDays, addMonths, daysInMonth, isLeapYear, isoWeekday, mondayOf, parseDay } from "../src/assistant/builtin/calendar";
import { findPeriod, thisMonthOf } from "../src/assistant/builtin/periods";
import { wordsOf } from "../src/assistant/builtin/words";

/** The period a phrase names on `today`, as [start, end, label]. */
function periodOf(phrase: string, today: string): [string, string, string] | null {
  const found = findPeriod(wordsOf(phrase), today);
  return found ? [found.period.start, found.period.end, found.period.label] : null;
}

describe("calendar", () => {
  it("knows leap years and month lengths", () => {
    expect([1900, 2000, 2024, 2025, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => daysInMonth(2026, month))).toEqual([31, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
  });

  it("adds days across month, year and leap-day boundaries", () => {
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-02-29", 1)).toBe("2024-03-01");
    expect(addDays("2025-02-28", 1)).toBe("2025-03-01");
    expect(addDays("2026-03-29", 1)).toBe("2026-03-30"); // a daylight-saving weekend in Europe changes nothing
    expect(addDays("2026-11-15", -29)).toBe("2026-10-17");
    expect(addDays("2026-11-15", 0)).toBe("2026-11-15");
  });

  it("adds months across years", () => {
    expect(addMonths(2026, 1, -1)).toEqual({ year: 2025, month: 12 });
    expect(addMonths(2026, 12, 1)).toEqual({ year: 2027, month: 1 });
    expect(addMonths(2026, 3, -15)).toEqual({ year: 2024, month: 12 });
  });

  it("numbers weekdays from Monday", () => {
    expect(isoWeekday("2026-11-16")).toBe(1);
    expect(isoWeekday("2026-11-15")).toBe(7);
    expect(mondayOf("2026-11-15")).toBe("2026-11-09");
    expect(mondayOf("2026-11-16")).toBe("2026-11-16");
    expect(mondayOf("2026-01-01")).toBe("2025-12-29");
  });

  it("refuses days that do not exist", () => {
    for (const text of ["2025-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-1-1", "yesterday", ""]) expect(() => parseDay(text)).toThrow(RangeError);
    expect(parseDay("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
  });
});

describe("named periods", () => {
  const today = "2026-11-15"; // a Sunday

  it.each([
    ["today", ["2026-11-15", "2026-11-15", "today"]],
    ["yesterday", ["2026-11-14", "2026-11-14", "yesterday"]],
    ["this month", ["2026-11-01", "2026-11-15", "this month"]],
    ["so far this month", ["2026-11-01", "2026-11-15", "this month"]],
    ["this month so far", ["2026-11-01", "2026-11-15", "this month"]],
    ["month to date", ["2026-11-01", "2026-11-15", "this month"]],
    ["current month", ["2026-11-01", "2026-11-15", "this month"]],
    ["last month", ["2026-10-01", "2026-10-31", "last month"]],
    ["previous month", ["2026-10-01", "2026-10-31", "last month"]],
    ["this year", ["2026-01-01", "2026-11-15", "this year"]],
    ["year to date", ["2026-01-01", "2026-11-15", "this year"]],
    ["ytd", ["2026-01-01", "2026-11-15", "this year"]],
    ["last year", ["2025-01-01", "2025-12-31", "last year"]],
    ["this week", ["2026-11-09", "2026-11-15", "this week"]],
    ["last week", ["2026-11-02", "2026-11-08", "last week"]],
    ["last 30 days", ["2026-10-17", "2026-11-15", "in the last 30 days"]],
    ["past 30 days", ["2026-10-17", "2026-11-15", "in the last 30 days"]],
    ["the last seven days", ["2026-11-09", "2026-11-15", "in the last 7 days"]],
    ["last 1 day", ["2026-11-15", "2026-11-15", "in the last 1 day"]],
    ["last 2 weeks", ["2026-11-02", "2026-11-15", "in the last 2 weeks"]],
    ["last 3 months", ["2026-08-16", "2026-11-15", "in the last 3 months"]],
    ["last 2 years", ["2024-11-16", "2026-11-15", "in the last 2 years"]],
    ["past week", ["2026-11-09", "2026-11-15", "in the past week"]],
    ["past month", ["2026-10-17", "2026-11-15", "in the past month"]],
    ["past year", ["2025-11-16", "2026-11-15", "in the past year"]],
    ["in March", ["2026-03-01", "2026-03-31", "in March 2026"]],
    ["March", ["2026-03-01", "2026-03-31", "in March 2026"]],
    ["in mar", ["2026-03-01", "2026-03-31", "in March 2026"]],
    ["in December", ["2025-12-01", "2025-12-31", "in December 2025"]],
    ["in November", ["2026-11-01", "2026-11-15", "in November 2026"]],
    ["last November", ["2025-11-01", "2025-11-30", "in November 2025"]],
    ["last March", ["2026-03-01", "2026-03-31", "in March 2026"]],
    ["this December", ["2026-12-01", "2026-12-31", "in December 2026"]],
    ["in March 2025", ["2025-03-01", "2025-03-31", "in March 2025"]],
    ["March of 2025", ["2025-03-01", "2025-03-31", "in March 2025"]],
    ["in sept 2024", ["2024-09-01", "2024-09-30", "in September 2024"]],
    ["in February 2024", ["2024-02-01", "2024-02-29", "in February 2024"]],
    ["in February 2025", ["2025-02-01", "2025-02-28", "in February 2025"]],
    ["in 2025", ["2025-01-01", "2025-12-31", "in 2025"]],
    ["in 2026", ["2026-01-01", "2026-11-15", "this year"]],
    ["in 2099", ["2099-01-01", "2099-12-31", "in 2099"]],
    ["in March 2099", ["2099-03-01", "2099-03-31", "in March 2099"]],
    ["next week", ["2026-11-16", "2026-11-22", "next week"]],
    ["next month", ["2026-12-01", "2026-12-31", "next month"]],
    ["next 10 days", ["2026-11-15", "2026-11-24", "in the next 10 days"]],
  ] as const)("%s", (phrase, expected) => {
    expect(periodOf(phrase, today)).toEqual(expected);
  });

  it("finds the period inside a question and takes its lead words", () => {
    const words = wordsOf("How much did we spend on groceries over the last 30 days?");
    const found = findPeriod(words, today)!;
    expect(words.slice(found.from, found.to)).toEqual(["over", "the", "last", "30", "days"]);
    const march = findPeriod(wordsOf("spent at Amazon in March"), today)!;
    expect(march.from).toBe(3);
    expect(march.to).toBe(5);
  });

  it("reads 'may' as a month only when led in or given a year", () => {
    expect(periodOf("may I ask what I spent", today)).toBeNull();
    expect(periodOf("what did I spend in May", today)).toEqual(["2026-05-01", "2026-05-31", "in May 2026"]);
    expect(periodOf("may 2025", today)).toEqual(["2025-05-01", "2025-05-31", "in May 2025"]);
  });

  it("names no period when there is none", () => {
    for (const phrase of ["", "what is my net worth", "last", "in", "the last days", "1969", "2100", "next", "last 0 days", "past 1e9 days"]) {
      expect(periodOf(phrase, today)).toBeNull();
    }
  });

  it("starts rolling periods no earlier than 1970", () => {
    expect(periodOf("last 99999 days", today)?.[0]).toBe("1970-01-01");
    expect(periodOf("last 99999 months", today)?.[0]).toBe("1970-01-01");
  });

  it("refuses a today that is no day", () => {
    expect(() => findPeriod(["today"], "2026-02-30")).toThrow(RangeError);
  });
});

describe("periods at the edges of months and years", () => {
  it("last month in January is December of last year", () => {
    expect(periodOf("last month", "2026-01-10")).toEqual(["2025-12-01", "2025-12-31", "last month"]);
    expect(periodOf("last month", "2026-01-01")).toEqual(["2025-12-01", "2025-12-31", "last month"]);
  });

  it("last month in March of a leap year ends on 29 February", () => {
    expect(periodOf("last month", "2024-03-31")).toEqual(["2024-02-01", "2024-02-29", "last month"]);
    expect(periodOf("last month", "2025-03-31")).toEqual(["2025-02-01", "2025-02-28", "last month"]);
  });

  it("this month on its first and last day", () => {
    expect(periodOf("this month", "2026-03-01")).toEqual(["2026-03-01", "2026-03-01", "this month"]);
    expect(periodOf("this month", "2026-03-31")).toEqual(["2026-03-01", "2026-03-31", "this month"]);
    expect(thisMonthOf("2026-02-28")).toEqual({ start: "2026-02-01", end: "2026-02-28", label: "this month", fullEnd: "2026-02-28" });
    expect(thisMonthOf("2026-02-10").fullEnd).toBe("2026-02-28");
  });

  it("yesterday across a month, year and leap day", () => {
    expect(periodOf("yesterday", "2026-03-01")?.[0]).toBe("2026-02-28");
    expect(periodOf("yesterday", "2024-03-01")?.[0]).toBe("2024-02-29");
    expect(periodOf("yesterday", "2026-01-01")?.[0]).toBe("2025-12-31");
  });

  it("'in March' is this March while in it, this year's after it, last year's before it", () => {
    expect(periodOf("in March", "2026-03-10")).toEqual(["2026-03-01", "2026-03-10", "in March 2026"]);
    expect(periodOf("in March", "2026-04-01")).toEqual(["2026-03-01", "2026-03-31", "in March 2026"]);
    expect(periodOf("in March", "2026-02-28")).toEqual(["2025-03-01", "2025-03-31", "in March 2025"]);
    expect(periodOf("in January", "2026-01-01")).toEqual(["2026-01-01", "2026-01-01", "in January 2026"]);
    expect(periodOf("in December", "2026-01-01")).toEqual(["2025-12-01", "2025-12-31", "in December 2025"]);
    expect(periodOf("last March", "2026-03-10")).toEqual(["2025-03-01", "2025-03-31", "in March 2025"]);
  });

  it("the last 3 months from the end of a long month clamp to the shorter one", () => {
    // Three months before 31 May is 28 February (no 31st): the period starts the day after.
    expect(periodOf("last 3 months", "2026-05-31")?.slice(0, 2)).toEqual(["2026-03-01", "2026-05-31"]);
    expect(periodOf("last 3 months", "2024-05-31")?.slice(0, 2)).toEqual(["2024-03-01", "2024-05-31"]);
    expect(periodOf("last 1 month", "2026-03-31")?.slice(0, 2)).toEqual(["2026-03-01", "2026-03-31"]);
  });

  it("weeks run Monday to Sunday across a year's end", () => {
    expect(periodOf("this week", "2026-01-01")).toEqual(["2025-12-29", "2026-01-01", "this week"]);
    expect(periodOf("last week", "2026-01-01")).toEqual(["2025-12-22", "2025-12-28", "last week"]);
    expect(periodOf("this week", "2026-11-16")).toEqual(["2026-11-16", "2026-11-16", "this week"]);
    expect(findPeriod(["this", "week"], "2026-11-16")?.period.fullEnd).toBe("2026-11-22");
  });

  it("this year on New Year's Eve and last year on New Year's Day", () => {
    expect(periodOf("this year", "2025-12-31")).toEqual(["2025-01-01", "2025-12-31", "this year"]);
    expect(periodOf("last year", "2026-01-01")).toEqual(["2025-01-01", "2025-12-31", "last year"]);
  });

  it("next month in December is January", () => {
    expect(periodOf("next month", "2026-12-31")).toEqual(["2027-01-01", "2027-01-31", "next month"]);
    expect(periodOf("next month", "2024-01-31")).toEqual(["2024-02-01", "2024-02-29", "next month"]);
  });
});
