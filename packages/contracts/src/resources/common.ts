import { z } from "zod";
import type { PageQuery } from "../primitives";

// Shapes many resources share: what a delete answers, and the page meta of Sure's paginated lists.

/** Sure's DeleteResponse. */
export const DeleteResponseSchema = z.object({ message: z.string() });

/**
 * Sure's pagy meta for rules and rule runs (current_page, next_page, prev_page, total_pages,
 * total_count, per_page), with the spec's `page` beside it (spec section 2, Pagination).
 */
export const PageMetaSchema = z.object({
  current_page: z.number().int().min(1),
  page: z.number().int().min(1),
  next_page: z.number().int().min(1).nullable(),
  prev_page: z.number().int().min(1).nullable(),
  total_pages: z.number().int().min(0),
  total_count: z.number().int().min(0),
  per_page: z.number().int().min(1),
});
export type PageMeta = z.infer<typeof PageMetaSchema>;

export function pageMetaOf(query: PageQuery, totalCount: number): PageMeta {
  const totalPages = Math.ceil(totalCount / query.per_page);
  return {
    current_page: query.page,
    page: query.page,
    next_page: query.page < totalPages ? query.page + 1 : null,
    prev_page: query.page > 1 ? query.page - 1 : null,
    total_pages: totalPages,
    total_count: totalCount,
    per_page: query.per_page,
  };
}
