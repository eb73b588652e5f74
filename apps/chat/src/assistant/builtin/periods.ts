import { numberOfWord } from "./words";
import { addDays, addMonths, dayText, daysInMonth, firstOfMonth, lastOfMonth, mondayOf, parseDay } from "./calendar";

/**
 * Named periods ("last month", "in March", "last 30 days") as inclusive day ranges, relative to the
 * family's today. The choices, so answers are predictable:
 * - "this week/month/year", "so far this month", "year to date" run from the period's first day to
 *   today (as Sure's current_month does): money dated after today is not spent yet.
 * - Any named period that contains today ends today ("in March" during March, "in 2026" in 2026);
 *   one wholly in the past is whole, and one wholly in the future ("in March 2099") is left whole.
 * - "in March" / "March" is the most recent March that has begun: this March while we are in it or
 *   past it, otherwise last year's. "last March" is the most recent March before this month.
 * - "last week" is the previous Monday to Sunday (weeks start on Monday, ISO 8601), "last month"
 *   and "last year" the previous calendar month and year.
 * - "last 30 days" (or "past 30 days") is the 30 days ending today, today included; "past week",
 *   "past month" and "past year" are the last 7, 30 and 365 days; "last 3 months" runs from the
 *   day after the same day three months ago to today.
 * - Ahead (for bills): "next week" is the coming Monday to Sunday, "next month" the coming calendar
 *   month, "next 30 days" the 30 days starting today.
 */
export interface Period {
  /** First day, YYYY-MM-DD, inclusive. */
  start: string;
  /** Last day, YYYY-MM-DD, inclusive. */
  end: string;
  /** How the answer names it: "last month", "in March 2026", "in the last 30 days". */
  label: string;
  /** The named period's last day before it was cut at today (this month's last day for "this month"): what is due looks there. */
  fullEnd: string;
}

/** A period found in a question's words, and which words it took (so they are not read as names). */
export interface PeriodMatch {
  period: Period;
  /** Index of its first word. */
  from: number;
  /** Index after its last word. */
  to: number;
}

/** Ledger dates run from 1970 (as entries carry); a rolling period reaching further back starts there. */
const EARLIEST_DAY = "1970-01-01";
const MIN_YEAR = 1970;
const MAX_YEAR = 2099;
/** How far ahead a period may reach: ten years is more than any bill needs. */
const MAX_DAYS_AHEAD = 3660;

export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const MONTH_BY_WORD = new Map<string, number>();
MONTH_NAMES.forEach((name, index) => {
  const word = name.toLowerCase();
  MONTH_BY_WORD.set(word, index + 1);
  MONTH_BY_WORD.set(word.slice(0, 3), index + 1);
});
MONTH_BY_WORD.set("sept", 9);

/** Words that may lead into a period and belong to it: "in March", "over the last 30 days". */
const LEAD_WORDS = new Set(["in", "during", "over", "for", "within"]);
const THIS = new Set(["this", "current"]);
const LAST = new Set(["last", "previous", "prior"]);
const ROLLING = new Set(["last", "past", "previous"]);

type Matcher = (words: readonly string[], at: number, today: string) => { period: Period; length: number } | null;

/** The period named first in `words`, or null when none is. */
export function findPeriod(words: readonly string[], today: string): PeriodMatch | null {
  parseDay(today);
  for (let at = 0; at < words.length; at++) {
    for (const matcher of MATCHERS) {
      const found = matcher(words, at, today);
      if (found) return withLeadWords(words, { period: found.period, from: at, to: at + found.length });
    }
  }
  return null;
}

/** Takes "in", "in the", "over the" in front of a period into it. */
function withLeadWords(words: readonly string[], match: PeriodMatch): PeriodMatch {
  let from = match.from;
  if (words[from - 1] === "the") from--;
  if (LEAD_WORDS.has(words[from - 1] ?? "")) from--;
  return { ...match, from };
}

/** A period that has begun and contains today ends today. */
function clipped(start: string, end: string, label: string, today: string): Period {
  return { start, end: start <= today && today < end ? today : end, label, fullEnd: end };
}

/** A period that is what it says, never cut. */
function whole(start: string, end: string, label: string): Period {
  return { start, end, label, fullEnd: end };
}

function monthPeriod(year: number, month: number, label: string, today: string): Period {
  return clipped(firstOfMonth(year, month), lastOfMonth(year, month), label, today);
}

function yearPeriod(year: number, label: string, today: string): Period {
  return clipped(`${year}-01-01`, `${year}-12-31`, label, today);
}

function rollingDays(count: number, label: string, today: string): Period {
  const start = addDays(today, 1 - count);
  return whole(start < EARLIEST_DAY ? EARLIEST_DAY : start, today, label);
}

function rollingMonths(count: number, label: string, today: string): Period {
  const { year, month, day } = parseDay(today);
  const earlier = addMonths(year, month, -count);
  if (earlier.year < MIN_YEAR) return whole(EARLIEST_DAY, today, label);
  const sameDay = dayText({ ...earlier, day: Math.min(day, daysInMonth(earlier.year, earlier.month)) });
  return whole(addDays(sameDay, 1), today, label);
}

function numberAt(word: string | undefined): number | null {
  return numberOfWord(word, 5);
}

function yearAt(word: string | undefined): number | null {
  if (word === undefined || !/^\d{4}$/.test(word)) return null;
  const year = Number(word);
  return year >= MIN_YEAR && year <= MAX_YEAR ? year : null;
}

const isUnit = (word: string | undefined, unit: string) => word === unit || word === `${unit}s`;

const fixedWords: Matcher = (words, at, today) => {
  const [first, second, third, fourth] = [words[at], words[at + 1], words[at + 2], words[at + 3]];
  const { year, month } = parseDay(today);
  if (first === "today") return { period: whole(today, today, "today"), length: 1 };
  if (first === "yesterday") {
    const day = addDays(today, -1);
    return { period: whole(day, day, "yesterday"), length: 1 };
  }
  const thisMonth = () => monthPeriod(year, month, "this month", today);
  if (first === "so" && second === "far" && third === "this" && fourth === "month") return { period: thisMonth(), length: 4 };
  if (first === "month" && second === "to" && third === "date") return { period: thisMonth(), length: 3 };
  if (first === "mtd") return { period: thisMonth(), length: 1 };
  if (first === "year" && second === "to" && third === "date") return { period: yearPeriod(year, "this year", today), length: 3 };
  if (first === "ytd") return { period: yearPeriod(year, "this year", today), length: 1 };
  if (first !== undefined && THIS.has(first)) {
    const soFar = third === "so" && fourth === "far" ? 2 : 0;
    if (second === "month") return { period: thisMonth(), length: 2 + soFar };
    if (second === "year") return { period: yearPeriod(year, "this year", today), length: 2 + soFar };
    if (second === "week") return { period: clipped(mondayOf(today), addDays(mondayOf(today), 6), "this week", today), length: 2 + soFar };
  }
  return null;
};

const previousCalendar: Matcher = (words, at, today) => {
  if (!LAST.has(words[at]!)) return null;
  const unit = words[at + 1];
  const { year, month } = parseDay(today);
  if (unit === "month") {
    const previous = addMonths(year, month, -1);
    return { period: monthPeriod(previous.year, previous.month, "last month", today), length: 2 };
  }
  if (unit === "year") return { period: yearPeriod(year - 1, "last year", today), length: 2 };
  if (unit === "week") {
    const monday = addDays(mondayOf(today), -7);
    return { period: whole(monday, addDays(monday, 6), "last week"), length: 2 };
  }
  return null;
};

/** "past week/month/year" and "last|past N days|weeks|months|years". */
const rolling: Matcher = (words, at, today) => {
  if (!ROLLING.has(words[at]!)) return null;
  const next = words[at + 1];
  if (words[at] === "past") {
    if (next === "week") return { period: rollingDays(7, "in the past week", today), length: 2 };
    if (next === "month") return { period: rollingDays(30, "in the past month", today), length: 2 };
    if (next === "year") return { period: rollingDays(365, "in the past year", today), length: 2 };
  }
  const count = numberAt(next);
  const unit = words[at + 2];
  if (count === null || count < 1 || unit === undefined) return null;
  const label = (name: string) => `in the last ${count} ${count === 1 ? name : `${name}s`}`;
  if (isUnit(unit, "day")) return { period: rollingDays(count, label("day"), today), length: 3 };
  if (isUnit(unit, "week")) return { period: rollingDays(count * 7, label("week"), today), length: 3 };
  if (isUnit(unit, "month")) return { period: rollingMonths(count, label("month"), today), length: 3 };
  if (isUnit(unit, "year")) return { period: rollingMonths(count * 12, label("year"), today), length: 3 };
  return null;
};

/** "March", "in March", "last March", "this March", "March 2025", "March of 2025". */
const namedMonth: Matcher = (words, at, today) => {
  const word = words[at]!;
  const month = MONTH_BY_WORD.get(word);
  const before = words[at - 1];
  if (month === undefined) {
    // "last March" / "this March": the month name follows.
    const following = MONTH_BY_WORD.get(words[at + 1] ?? "");
    if (following === undefined || (word !== "last" && !THIS.has(word))) return null;
    const current = parseDay(today);
    const year = THIS.has(word) ? current.year : following < current.month ? current.year : current.year - 1;
    return { period: monthPeriod(year, following, `in ${MONTH_NAMES[following - 1]} ${year}`, today), length: 2 };
  }
  const ofYear = words[at + 1] === "of" ? 1 : 0;
  const explicitYear = yearAt(words[at + 1 + ofYear]);
  // "may" is mostly the verb: only a month when led in ("in May") or followed by a year.
  if (word === "may" && explicitYear === null && !(before !== undefined && (LEAD_WORDS.has(before) || before === "since"))) return null;
  const current = parseDay(today);
  const year = explicitYear ?? (month <= current.month ? current.year : current.year - 1);
  const length = explicitYear === null ? 1 : 2 + ofYear;
  return { period: monthPeriod(year, month, `in ${MONTH_NAMES[month - 1]} ${year}`, today), length };
};

/** "2025", "in 2025". */
const namedYear: Matcher = (words, at, today) => {
  const year = yearAt(words[at]);
  if (year === null) return null;
  const current = parseDay(today).year;
  return { period: yearPeriod(year, year === current ? "this year" : `in ${year}`, today), length: 1 };
};

/** "next week", "next month", "next N days|weeks": periods ahead, for what is due. */
const ahead: Matcher = (words, at, today) => {
  if (words[at] !== "next" && words[at] !== "coming") return null;
  const next = words[at + 1];
  if (next === "week") {
    const monday = addDays(mondayOf(today), 7);
    return { period: whole(monday, addDays(monday, 6), "next week"), length: 2 };
  }
  if (next === "month") {
    const { year, month } = parseDay(today);
    const following = addMonths(year, month, 1);
    return { period: whole(firstOfMonth(following.year, following.month), lastOfMonth(following.year, following.month), "next month"), length: 2 };
  }
  const count = numberAt(next);
  const unit = words[at + 2];
  if (count === null || count < 1 || count > MAX_DAYS_AHEAD) return null;
  const days = isUnit(unit, "day") ? count : isUnit(unit, "week") ? count * 7 : null;
  if (days === null || days > MAX_DAYS_AHEAD) return null;
  const label = `in the next ${count} ${isUnit(unit, "day") ? "day" : "week"}${count === 1 ? "" : "s"}`;
  return { period: whole(today, addDays(today, days - 1), label), length: 3 };
};

const MATCHERS: readonly Matcher[] = [fixedWords, previousCalendar, rolling, ahead, namedMonth, namedYear];

/** This month so far: what an amount question with no period is about. */
export function thisMonthOf(today: string): Period {
  const { year, month } = parseDay(today);
  return monthPeriod(year, month, "this month", today);
}
