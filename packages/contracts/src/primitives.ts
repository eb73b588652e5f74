import { z } from "zod";

export const UuidSchema = z.uuid({ message: "must be a UUID" });
export const TimestampSchema = z.iso.datetime({ offset: true });
export const DateSchema = z.iso.date();
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

/** A boolean query parameter as clients send it: "true"/"1" or "false"/"0". */
export const BooleanQuerySchema = z.preprocess(
  (value) => (value === "true" || value === "1" ? true : value === "false" || value === "0" ? false : value),
  z.boolean(),
);

/** A list query parameter sent as `ids[]=a&ids[]=b`, `ids=a&ids=b` or a single `ids=a`. */
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

/** A positive whole number from a query string, or `fallback` for anything else (Sure does not refuse these). */
const wholeOr = (fallback: number) => (value: unknown) => {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(number) && number >= 1 ? Math.floor(number) : fallback;
};

/**
 * page/per_page query parameters as Sure reads them: page defaults to 1; per_page defaults to 25,
 * above 100 becomes 100, and below 1 or not a number becomes 25.
 */
const QueryNumber = z.union([z.number(), z.string()]).optional();
export const PageQuerySchema = z.object({
  page: QueryNumber.transform(wholeOr(1)).describe("Page number (default: 1)"),
  per_page: QueryNumber.transform((value) => Math.min(wholeOr(DEFAULT_PER_PAGE)(value), MAX_PER_PAGE)).describe("Items per page (default: 25, max: 100)"),
});
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

/** Where in a JSON value a string holds a NUL character (PostgreSQL text cannot store one), or null. */
export function nulPathOf(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulPathOf(item, [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPathOf(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * The schema, refusing any string with a NUL character anywhere inside: such text can never
 * be stored, so it is a validation failure at the boundary, not a database error later.
 */
export function withoutNul<S extends z.ZodType>(schema: S) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const path = nulPathOf(value);
      if (path) ctx.addIssue({ code: "custom", path, message: "must not contain NUL (\\u0000) characters" });
    })
    .pipe(schema);
}
