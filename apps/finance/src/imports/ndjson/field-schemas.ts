import { z } from "zod";
import { BooleanParamSchema, CurrencyInputSchema, DateSchema, HexColorSchema, LedgerDateSchema } from "@hearth/contracts";

/** Ruby's blank?: nil, false, text of only whitespace, an empty array or object. */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/** Sure's `presence`: a blank value counts as absent. */
export const presence = (value: unknown): unknown => (isBlank(value) ? undefined : value);

export const isJsonObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Longest source id kept: a UUID is 36, Sure's ids are UUIDs, another exporter's may be longer. */
export const SOURCE_ID_MAX = 255;
const TEXT_MESSAGE = "must be text";
const tooLong = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

/** An id the exporter gave a record, kept as written (a JSON number arrives as its digits). */
export const SourceIdSchema = z.string({ message: TEXT_MESSAGE }).max(SOURCE_ID_MAX, tooLong(SOURCE_ID_MAX));

/** An optional source id: blank is none (Sure skips the reference then). */
export const OptionalSourceIdSchema = z.preprocess(presence, SourceIdSchema.optional()).transform((id) => id ?? null);

/** Tags one record may carry, as Hearth's transactions take them. */
export const MAX_TAG_IDS = 100;

/** Sure's Array(tag_ids): one id or a list of ids; none is an empty list. */
export const SourceIdListSchema = z
  .preprocess(
    (value) => (isBlank(value) ? [] : Array.isArray(value) ? value : [value]),
    z.array(SourceIdSchema).max(MAX_TAG_IDS, { message: `must hold at most ${MAX_TAG_IDS} ids` }),
  )
  .transform((ids) => ids.filter((id) => id.trim() !== ""));

/** Text as written, at most `max` characters (required: the preflight reported it blank already). */
export const textSchema = (max: number) => z.string({ message: TEXT_MESSAGE }).max(max, tooLong(max));

/** A name: trimmed (as Hearth stores names), at most `max` characters. */
export const nameSchema = (max: number) => textSchema(max).trim();

/** Optional text: blank is null. */
export const optionalTextSchema = (max: number) => z.preprocess(presence, textSchema(max).optional()).transform((text) => text ?? null);

/** An optional name: trimmed, blank is null. */
export const optionalNameSchema = (max: number) => z.preprocess(presence, nameSchema(max).optional()).transform((text) => text ?? null);

const DATE_MESSAGE = "must be a date like 2024-01-31";
const DATE_RANGE_MESSAGE = "must be between 1970-01-01 and 2099-12-31";

/** A calendar day as Sure's exporter writes it (YYYY-MM-DD), in the years Hearth's ledger holds. */
export const ImportDateSchema = z.string({ message: DATE_MESSAGE }).superRefine((text, ctx) => {
  if (text.length !== 10 || !DateSchema.safeParse(text).success) ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
  else if (!LedgerDateSchema.safeParse(text).success) ctx.addIssue({ code: "custom", message: DATE_RANGE_MESSAGE });
});

export const OptionalImportDateSchema = z.preprocess(presence, ImportDateSchema.optional()).transform((date) => date ?? null);

/** A currency code in any case ("usd" is USD, as Money::Currency reads it); blank is none (the default applies). */
export const OptionalCurrencySchema = z
  .preprocess(presence, z.string({ message: TEXT_MESSAGE }).max(16, { message: "must be a currency code like USD" }).pipe(CurrencyInputSchema).optional())
  .transform((code) => code ?? null);

/** A boolean as Rails casts one (true/false, "1"/"0", "t"/"f", ...); blank is `fallback`. */
export const booleanSchema = (fallback: boolean) => z.preprocess(presence, BooleanParamSchema.optional()).transform((value) => value ?? fallback);

/** A colour as Sure validates it (#rrggbb); blank is none. */
export const OptionalColorSchema = z.preprocess(presence, HexColorSchema.optional()).transform((color) => color ?? null);

/** A whole number written as digits (JSON numbers arrive as their text), from `min` to `max`. */
export function integerSchema(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string({ message })
    .max(12, { message })
    .regex(/^[+-]?\d+$/, { message })
    .transform(Number)
    .refine((value) => value >= min && value <= max, { message });
}

/** One of `values`; blank, or anything else, is `fallback` (how Sure reads statuses and kinds it does not know). */
export function enumOrFallback<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z
    .unknown()
    .optional()
    .transform((value): T[number] => (typeof value === "string" && (values as readonly string[]).includes(value) ? value : fallback));
}

/** One of `values` or absent (blank is absent): anything else is refused, naming the choices. */
export function optionalEnumSchema<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(presence, z.enum(values, { message: `must be one of: ${values.join(", ")}` }).optional()).transform((value) => value ?? null);
}
