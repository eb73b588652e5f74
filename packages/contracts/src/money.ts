import { z } from "zod";

/**
 * Money on the wire is a pair (spec section 2): a display string and an integer `<name>_cents`
 * in the currency's minor units. Amounts are integers end to end; floats never touch them.
 */
export const CentsSchema = z.number().int().safe();

export const CurrencyCodeSchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "Currency must be a three-letter ISO 4217 code" })
  .refine((code) => Intl.supportedValuesOf("currency").includes(code), { message: "Currency is not a known ISO 4217 code" });

type StringFormat = Intl.NumberFormat & { format(value: string): string };

/**
 * One formatter per locale and currency: building an Intl.NumberFormat costs about a hundred
 * times what formatting with it does, and a list answer formats several amounts per row. Bounded
 * by the currency codes and locales in use (both validated where they come in).
 */
const formats = new Map<string, StringFormat>();
function currencyFormat(locale: string, currency: string): StringFormat {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency }) as StringFormat;
    if (formats.size < 10_000) formats.set(key, format);
  }
  return format;
}

const digitsOf = new Map<string, number>();

/** Digits after the decimal point in the currency's minor unit: USD 2, JPY 0, KWD 3 (remembered: resolvedOptions() is slow, and exports ask per row). */
export function minorUnitDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = currencyFormat("en", currency).resolvedOptions().maximumFractionDigits ?? 2;
    if (digitsOf.size < 10_000) digitsOf.set(currency, digits);
  }
  return digits;
}

/** Exact decimal text of an amount in minor units, e.g. (-123456, 2) → "-1234.56". */
export function decimalOf(cents: number | bigint, digits: number): string {
  const value = BigInt(cents);
  const sign = value < 0n ? "-" : "";
  const text = (value < 0n ? -value : value).toString().padStart(digits + 1, "0");
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** The display string of an amount: "$1,234.56". Intl formats the exact decimal string, not a float. */
export function formatMoney(cents: number | bigint, currency: string, locale = "en-US"): string {
  return currencyFormat(locale, currency).format(decimalOf(cents, minorUnitDigits(currency)));
}

type MoneyShape<N extends string> = { [K in N]: z.ZodString } & { [K in `${N}_cents`]: typeof CentsSchema };

/** The schema of a money pair named `name`: `{ name: string, name_cents: integer }`. */
export function moneyPair<N extends string>(name: N) {
  return z.object({ [name]: z.string(), [`${name}_cents`]: CentsSchema } as MoneyShape<N>);
}

/** The wire value of a money pair: `moneyOf("balance", 123456, "USD")` → `{ balance: "$1,234.56", balance_cents: 123456 }`. */
export function moneyOf<N extends string>(name: N, cents: number, currency: string, locale?: string): z.infer<ReturnType<typeof moneyPair<N>>> {
  return { [name]: formatMoney(cents, currency, locale), [`${name}_cents`]: cents } as z.infer<ReturnType<typeof moneyPair<N>>>;
}

/** Longest amount text read: 13 whole digits (10^12 minor units) and room for trailing zeros. */
const MAX_AMOUNT_TEXT = 40;
/** Bounded counts keep every later step on the text linear in a short string. */
const AMOUNT_TEXT = /^[+-]?\d{1,13}(\.\d{1,20})?$/;

/** `text` without the trailing runs of `char`, in one pass (a regex like /0+$/ is quadratic on long runs). */
export function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/**
 * An amount as clients send it: a JSON number (Sure's clients) or a decimal string. It stays
 * text until `centsOf` reads its digits, so 0.1 + 0.2 never happens to a cent.
 */
export const AmountInputSchema = z
  .union([
    z.number().finite(),
    z
      .string()
      .max(MAX_AMOUNT_TEXT, { message: `Amount must be at most ${MAX_AMOUNT_TEXT} characters` })
      .trim(),
  ])
  .transform((value) => (typeof value === "number" ? numberText(value) : value))
  .refine((text) => /^[+-]?\d+(\.\d+)?$/.test(text), { message: "Amount must be a number like 12.34" })
  .refine((text) => AMOUNT_TEXT.test(text), { message: "Amount has at most 13 digits before the point and 20 after" });

/** A JS number as plain decimal text (no exponent): 1e-7 → "0.0000001". */
function numberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const trimmed = trimTrailing(value.toFixed(20), "0");
  return trimmed.endsWith(".") ? trimmed.slice(0, -1) : trimmed;
}

/** The largest amount one entry may carry, in minor units (a thousand times below 2^53). */
export const MAX_AMOUNT_CENTS = 10n ** 12n;

/**
 * Minor units of a decimal amount in a currency: ("12.3", "USD") → 1230n. More decimals than the
 * currency has ("0.001" USD) is refused, never rounded, so no cent is invented or lost.
 */
export function centsOf(text: string, currency: string): bigint {
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new RangeError(`"${text}" is not a decimal amount`);
  const [, sign, whole, fraction = ""] = match;
  const digits = minorUnitDigits(currency);
  const trimmed = trimTrailing(fraction, "0");
  if (trimmed.length > digits) throw new RangeError(`${currency} amounts have at most ${digits} decimal places`);
  const cents = BigInt(whole! + trimmed.padEnd(digits, "0"));
  // Sums of amounts must stay exact JavaScript numbers on the wire (below 2^53).
  if (cents > MAX_AMOUNT_CENTS) throw new RangeError(`amounts are at most ${MAX_AMOUNT_CENTS.toString()} minor units`);
  return sign === "-" ? -cents : cents;
}
