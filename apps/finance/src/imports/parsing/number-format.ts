import { MAX_AMOUNT_CENTS, trimTrailing, type ImportNumberFormat } from "@hearth/contracts";

/** Sure's NUMBER_FORMATS: the decimal separator and thousands delimiter of each ("" where there is none). */
export const NUMBER_FORMAT_SYMBOLS: Record<ImportNumberFormat, { separator: string; delimiter: string }> = {
  "1,234.56": { separator: ".", delimiter: "," },
  "1.234,56": { separator: ",", delimiter: "." },
  "1 234,56": { separator: ",", delimiter: " " },
  "1,234": { separator: "", delimiter: "," },
};

/** Whole digits a number may have (a thousand times the largest amount), and decimals. */
const MAX_WHOLE_DIGITS = 15;
const MAX_FRACTION_DIGITS = 20;

export type DecimalResult = { ok: true; decimal: string } | { ok: false; reason: "blank" | "invalid" | "out_of_range" };

const isDigit = (char: string) => char >= "0" && char <= "9";
/** Any Unicode space: the thousands "space" may be U+0020, a no-break space (U+00A0) or a narrow one (U+202F). */
const isSpace = (char: string) => /^\s$/u.test(char);
/** Swiss exports group thousands with an apostrophe ("1'234.56"). */
const isGrouping = (char: string) => isSpace(char) || char === "'" || char === "\u2019";

/**
 * A number as a bank export writes it, read per number_format into plain decimal text
 * ("-1234.56"), digit by digit: no float ever holds it. As Sure's sanitize_number: currency
 * symbols and codes around the number go ("€1 234,56", "1 234,56 kr", "USD -12.00"), thousands
 * delimiters and spaces inside it go, the decimal separator becomes ".", a leading minus stays.
 * Unlike Sure, "(12.34)" is read as -12.34 (accountants' negative, which Sure reads as +12.34),
 * and any other character inside the number makes it invalid where Sure drops it silently
 * ("12.50" under "1,234" is refused, not read as 1250).
 */
export function parseDecimal(text: string, format: ImportNumberFormat): DecimalResult {
  const { separator, delimiter } = NUMBER_FORMAT_SYMBOLS[format];
  const value = text.trim();
  if (value === "") return { ok: false, reason: "blank" };

  let first = -1;
  let last = -1;
  for (let i = 0; i < value.length; i++) {
    if (!isDigit(value[i]!)) continue;
    if (first === -1) first = i;
    last = i;
  }
  if (first === -1) return { ok: false, reason: "invalid" };
  // ".50" and "$.50": a separator right before the first digit belongs to the number.
  const start = separator !== "" && first > 0 && value[first - 1] === separator ? first - 1 : first;

  let negative = false;
  let parenthesised = false;
  for (const char of value.slice(0, start)) {
    if (char === "-") {
      if (negative) return { ok: false, reason: "invalid" };
      negative = true;
    } else if (char === "(") {
      if (parenthesised) return { ok: false, reason: "invalid" };
      parenthesised = true;
    }
  }
  let closed = false;
  for (const char of value.slice(last + 1)) {
    // A trailing minus ("12.00-") is refused, as in Sure.
    if (char === "-" || (char === ")" && (closed || !parenthesised))) return { ok: false, reason: "invalid" };
    if (char === ")") closed = true;
  }
  if (parenthesised !== closed || (parenthesised && negative)) return { ok: false, reason: "invalid" };

  let whole = "";
  let fraction: string | null = null;
  for (const char of value.slice(start, last + 1)) {
    if (isDigit(char)) {
      if (fraction === null) whole += char;
      else fraction += char;
    } else if (separator !== "" && char === separator) {
      if (fraction !== null) return { ok: false, reason: "invalid" };
      fraction = "";
    } else if ((char === delimiter || isGrouping(char)) && fraction === null) {
      continue;
    } else {
      return { ok: false, reason: "invalid" };
    }
  }

  let leadingZeros = 0;
  while (leadingZeros < whole.length - 1 && whole[leadingZeros] === "0") leadingZeros++;
  whole = whole.slice(leadingZeros) || "0";
  if (whole.length > MAX_WHOLE_DIGITS || (fraction ?? "").length > MAX_FRACTION_DIGITS) return { ok: false, reason: "out_of_range" };
  const zero = whole === "0" && !/[1-9]/.test(fraction ?? "");
  const sign = (negative || parenthesised) && !zero ? "-" : "";
  return { ok: true, decimal: `${sign}${whole}${fraction ? `.${fraction}` : ""}` };
}

export type MinorUnitsResult = { ok: true; minorUnits: bigint } | { ok: false; reason: "too_many_decimals" | "out_of_range" };

/**
 * Plain decimal text ("-1234.5") as integer minor units of a currency with `digits` decimals
 * (-123450n for two). More significant decimals than the currency has is refused, never rounded,
 * and so is an amount past the ledger's bound (MAX_AMOUNT_CENTS).
 */
export function minorUnitsOf(decimal: string, digits: number): MinorUnitsResult {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? decimal.slice(1) : decimal).split(".");
  const significant = trimTrailing(fraction, "0");
  if (significant.length > digits) return { ok: false, reason: "too_many_decimals" };
  const size = BigInt(whole + significant.padEnd(digits, "0"));
  if (size > MAX_AMOUNT_CENTS) return { ok: false, reason: "out_of_range" };
  return { ok: true, minorUnits: negative ? -size : size };
}

export type AmountResult =
  { ok: true; decimal: string; minorUnits: bigint } | { ok: false; reason: "blank" | "invalid" | "out_of_range" | "too_many_decimals" };

/** An amount cell per number_format as minor units of a currency with `digits` decimals. */
export function parseAmount(text: string, format: ImportNumberFormat, digits: number): AmountResult {
  const parsed = parseDecimal(text, format);
  if (!parsed.ok) return parsed;
  const units = minorUnitsOf(parsed.decimal, digits);
  return units.ok ? { ok: true, decimal: parsed.decimal, minorUnits: units.minorUnits } : units;
}

/**
 * Plain decimal text rounded half away from zero to at most `scale` decimals, trailing zeros
 * dropped ("123.45678", 4 → "123.4568"; "10.50", 8 → "10.5"): how a numeric(p, scale) column
 * stores a quantity or unit price Sure reads from a file.
 */
export function roundDecimal(decimal: string, scale: number): string {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? decimal.slice(1) : decimal).split(".");
  let units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, "0"));
  if (fraction.length > scale && fraction[scale]! >= "5") units += 1n;
  const digits = units.toString().padStart(scale + 1, "0");
  const kept = trimTrailing(digits.slice(digits.length - scale), "0");
  const text = `${digits.slice(0, digits.length - scale)}${kept ? `.${kept}` : ""}`;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}
