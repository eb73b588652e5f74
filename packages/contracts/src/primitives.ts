import { z } from "zod";

export const UuidSchema = z.uuid({ message: "must be a UUID" });

/** Text shaped like a UUID, of any version (a stored rule's operand, a file's id column): laxer than UuidSchema. */
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The nil UUID: no record has it (ids are UUIDv7), so looking it up finds nothing. */
const NO_RECORD_ID = "00000000-0000-0000-0000-000000000000";

/**
 * The id of a record a write acts on, read as Rails' `find` reads it: a number or text that is
 * no UUID (Sure's tests send 999999) names no record, so the answer is the 404 of a missing
 * record rather than a validation failure. Blank text stays a validation failure ("required").
 */
export const RecordRefSchema = z.preprocess(
  (value) => ((typeof value === "number" || (typeof value === "string" && value.trim() !== "")) && !UuidSchema.safeParse(value).success ? NO_RECORD_ID : value),
  UuidSchema,
);
export const TimestampSchema = z.iso.datetime({ offset: true });
/** A calendar date on the wire (YYYY-MM-DD), as responses carry it. */
export const DateSchema = z.iso.date();

/** The years a date from a client may name (see DateInputSchema). */
export const DATE_INPUT_RANGE = { min: "1900-01-01", max: "2999-12-31" } as const;
const DATE_INPUT_MESSAGE = `must be a real calendar date (YYYY-MM-DD) from ${DATE_INPUT_RANGE.min} to ${DATE_INPUT_RANGE.max}`;

/**
 * A date a client sends (filters, exchange-rate dates): a day that exists (no 2024-02-30), in
 * years 1900 to 2999. That holds every ledger date with room for "since ever" filters, and
 * keeps away from the edges where PostgreSQL and JavaScript differ (PostgreSQL has no year 0).
 */
export const DateInputSchema = z.iso
  .date({ message: DATE_INPUT_MESSAGE })
  .refine((date) => date >= DATE_INPUT_RANGE.min && date <= DATE_INPUT_RANGE.max, { message: DATE_INPUT_MESSAGE, abort: true });

/**
 * A date an entry or valuation may carry: balances are computed for every day from an account's
 * first entry, so a typo like 0202-01-01 would mean 700,000 days of rows. 1970 to 2099 holds
 * any household's history.
 */
export const LedgerDateSchema = DateSchema.refine((date) => date >= "1970-01-01" && date <= "2099-12-31", {
  message: "Date must be between 1970-01-01 and 2099-12-31",
});
/** Hex colour as Sure stores it, e.g. "#e99537". */
export const HexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a hex colour like #4da568" });

/** The words Rails' boolean cast reads (ActiveModel::Type::Boolean), any case; other words are refused, not read as true. */
const BOOLEAN_WORDS: Record<string, boolean> = { true: true, t: true, "1": true, on: true, false: false, f: false, "0": false, off: false };
const BOOLEAN_MESSAGE = "must be true or false (also accepted: 1 or 0)";

/**
 * A boolean as Sure's Rails params take it, in a query or a JSON body: true/false, or the text
 * "true"/"false", "1"/"0", "t"/"f", "on"/"off", or the numbers 1/0. Every boolean parameter a
 * client sends uses this one primitive.
 */
export const BooleanParamSchema = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z
    .union([z.boolean(), z.literal([0, 1]), z.enum(Object.keys(BOOLEAN_WORDS) as [string, ...string[]])], { error: BOOLEAN_MESSAGE })
    .transform((value) => (typeof value === "boolean" ? value : (BOOLEAN_WORDS[String(value)] ?? false))),
);

/** @deprecated The same primitive under its old name (still imported by resources/accounts.ts): use BooleanParamSchema. */
export const BooleanQuerySchema = BooleanParamSchema;

/**
 * A list query parameter sent as `ids=a&ids=b` or a single `ids=a`. Rails' `ids[]=a&ids[]=b`
 * reaches it the same way: the gateway folds bracketed keys into their plain name.
 */
export function listQuery<S extends z.ZodType>(item: S) {
  return z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item).max(100));
}

export const PaginationSchema = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total_count: z.number().int().min(0),
  total_pages: z.number().int().min(0),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;

/**
 * The deepest page a list serves, and the largest number any page parameter may say: far past
 * any household's data, and (page - 1) * per_page stays a safe row offset for Prisma.
 */
export const MAX_PAGE = 1_000_000;

/** Text a client meant as a number: a sign, a digit or a decimal point first, or JavaScript's Infinity/NaN. */
const NUMBER_LIKE = /^[+-]?(\d|\.\d|infinity$|nan$)/i;

/**
 * A page parameter as Sure reads it, without its surprises: absent, empty or a word that is no
 * number at all ("abc") is `fallback`; 0 is `fallback`; above `clampTo` is `clampTo`. Anything
 * else that is not a whole number up to MAX_PAGE (-1, 1.5, 1e300, Infinity, twenty digits) is
 * refused, naming the parameter, instead of reaching the database as a row offset.
 */
function pageNumber(fallback: number, clampTo: number) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : value === undefined ? "" : null;
      if (text === "" || (text !== null && !NUMBER_LIKE.test(text))) return fallback;
      const number = text !== null && /^\d+$/.test(text) ? Number(text) : NaN;
      if (number <= MAX_PAGE) return number < 1 ? fallback : Math.min(number, clampTo);
      ctx.addIssue({ code: "custom", message: `must be a whole number from 1 to ${MAX_PAGE}` });
      return z.NEVER;
    });
}

/**
 * page/per_page query parameters as Sure reads them: page defaults to 1; per_page defaults to 25,
 * above 100 becomes 100, and 0 or a word becomes 25. Numbers out of range are a 400 (pageNumber).
 */
export const PageQuerySchema = pageQueryOf(DEFAULT_PER_PAGE);

/** page/per_page as PageQuerySchema reads them, with another default page size (Sure's chat shows 50 messages a page). */
export function pageQueryOf(defaultPerPage: number) {
  return z.object({
    page: pageNumber(1, MAX_PAGE).describe("Page number (default: 1)").meta({ type: "integer", minimum: 1, maximum: MAX_PAGE }),
    per_page: pageNumber(defaultPerPage, MAX_PER_PAGE)
      .describe(`Items per page (default: ${defaultPerPage}, max: ${MAX_PER_PAGE})`)
      .meta({ type: "integer", minimum: 1 }),
  });
}
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The rows of a page, as Prisma's skip/take. */
export function pageWindow(query: PageQuery): { skip: number; take: number } {
  return { skip: (query.page - 1) * query.per_page, take: query.per_page };
}

export function paginationOf(query: PageQuery, totalCount: number): Pagination {
  return {
    page: query.page,
    per_page: query.per_page,
    total_count: totalCount,
    total_pages: Math.ceil(totalCount / query.per_page),
  };
}

/** An unpaired UTF-16 surrogate: with the `u` flag a well-formed pair is one code point and does not match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * Why PostgreSQL cannot take this string, or null. Text columns cannot hold NUL; an unpaired
 * surrogate is no Unicode text at all: UTF-8 cannot encode it (the driver would store U+FFFD
 * silently) and jsonb refuses its \u escape, so an event carrying one breaks the outbox.
 */
function unstorableReason(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL (\\u0000) characters";
  if (LONE_SURROGATE.test(text)) return "must not contain unpaired UTF-16 surrogates";
  return null;
}

export interface UnstorableText {
  /** Where the string is; for an object key, the key itself with the bad characters as U+FFFD. */
  path: (string | number)[];
  message: string;
}

/** A place in a JSON value, linked to its parent so a deep walk does not copy paths. */
interface Place {
  value: unknown;
  key: string | number | null;
  parent: Place | null;
}

function pathOf(place: Place | null, last?: string): (string | number)[] {
  const path: (string | number)[] = last === undefined ? [] : [last];
  for (let at = place; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string (value or object key) in a JSON value that PostgreSQL cannot store, or null.
 * Walks with its own stack: a JSON body nested 100,000 deep must not overflow the call stack.
 */
export function unstorableTextOf(value: unknown): UnstorableText | null {
  const pending: Place[] = [{ value, key: null, parent: null }];
  for (let place = pending.pop(); place; place = pending.pop()) {
    const current = place.value;
    if (typeof current === "string") {
      const message = unstorableReason(current);
      if (message) return { path: pathOf(place), message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], key: i, parent: place });
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (const [key] of entries) {
        const message = unstorableReason(key);
        if (message) return { path: pathOf(place, key.replaceAll("\u0000", "\uFFFD").replace(/[\uD800-\uDFFF]/gu, "\uFFFD")), message };
      }
      for (const [key, item] of entries.reverse()) pending.push({ value: item, key, parent: place });
    }
  }
  return null;
}

/**
 * The schema, refusing any string (or key) PostgreSQL cannot store anywhere inside: such text
 * is a validation failure at the boundary, not a database or outbox error later.
 */
export function withStorableText<S extends z.ZodType>(schema: S) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const found = unstorableTextOf(value);
      if (found) ctx.addIssue({ code: "custom", path: found.path, message: found.message });
    })
    .pipe(schema);
}
