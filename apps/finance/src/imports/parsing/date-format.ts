import type { ImportDateFormat } from "@hearth/contracts";

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

type Directive = "Y" | "m" | "d" | "e" | "y" | "b";
type Token = { directive: Directive } | { literal: string };

function tokensOf(format: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < format.length; i++) {
    if (format[i] === "%" && i + 1 < format.length) tokens.push({ directive: format[++i] as Directive });
    else tokens.push({ literal: format[i]! });
  }
  return tokens;
}

const TOKENS = new Map<string, Token[]>();
const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";
const isNumeric = (token: Token | undefined) => token !== undefined && "directive" in token && token.directive !== "b";

/** Days in a month of the proleptic Gregorian calendar (as Ruby's Date). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * A date cell read with a strptime format of Sure's list, as Ruby's Date.strptime reads it:
 * %d, %e and %m take one or two digits (%d and %e after an optional space), %Y up to four
 * (exactly as many as it finds, four when a number follows at once as in %Y%m%d), %y two with
 * 69-99 as 19xx and 00-68 as 20xx, %b a month's English name or its first three letters in any
 * case; a space in the format matches any run of spaces. Nothing may follow, and the day must
 * exist: "2026-02-30" is no date. Answers the ISO date ("2026-02-28") or null.
 */
export function parseDateByFormat(text: string, format: ImportDateFormat): string | null {
  let tokens = TOKENS.get(format);
  if (!tokens) TOKENS.set(format, (tokens = tokensOf(format)));
  let year: number | null = null;
  let month: number | null = null;
  let day: number | null = null;
  let at = 0;

  const digits = (max: number): number | null => {
    let end = at;
    while (end - at < max && isDigit(text[end])) end++;
    if (end === at) return null;
    const value = Number(text.slice(at, end));
    at = end;
    return value;
  };

  for (const [position, token] of tokens.entries()) {
    if ("literal" in token) {
      if (token.literal === " ") {
        while (at < text.length && /^\s$/u.test(text[at]!)) at++;
      } else if (text[at++] !== token.literal) {
        return null;
      }
      continue;
    }
    switch (token.directive) {
      case "Y": {
        const start = at;
        const value = digits(isNumeric(tokens[position + 1]) ? 4 : 5);
        if (value === null || at - start > 4) return null;
        year = value;
        break;
      }
      case "y": {
        const value = digits(2);
        if (value === null) return null;
        year = value >= 69 ? 1900 + value : 2000 + value;
        break;
      }
      case "m":
        month = digits(2);
        if (month === null) return null;
        break;
      case "d":
      case "e":
        if (text[at] === " ") at++;
        day = digits(2);
        if (day === null) return null;
        break;
      case "b": {
        const rest = text.slice(at, at + 9).toLowerCase();
        const index = MONTHS.findIndex((name) => rest.startsWith(name));
        const short = index === -1 ? MONTHS.findIndex((name) => rest.startsWith(name.slice(0, 3))) : -1;
        if (index === -1 && short === -1) return null;
        month = (index === -1 ? short : index) + 1;
        at += index === -1 ? 3 : MONTHS[index]!.length;
        break;
      }
      default:
        return null;
    }
  }
  if (at !== text.length || year === null || month === null || day === null) return null;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
