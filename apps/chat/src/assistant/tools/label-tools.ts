import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";
import { capped, readCapped, refOf } from "./tool-shapes";

/** The family's categories, merchants and tags (whole lists, capped), and create_tag. */
export function labelTools(finance: FinanceClient): Pick<ToolHandlers, "get_categories" | "get_merchants" | "get_tags" | "create_tag"> {
  return {
    async get_categories(args) {
      const all = await readCapped(async (page, perPage) => {
        const answer = await finance.call("categories.list", { page, per_page: perPage });
        return { rows: answer.categories, total: answer.pagination.total_count };
      });
      const rows = all.rows.filter((category) => args.classification === undefined || category.classification === args.classification);
      return {
        categories: rows.map((category) => ({ id: category.id, name: category.name, classification: category.classification, parent: refOf(category.parent) })),
        // Filtered here: the count of those read (all of them unless truncated).
        total_count: args.classification === undefined ? all.total : rows.length,
        truncated: all.truncated,
      };
    },

    async get_merchants(args) {
      const needle = args.search?.toLocaleLowerCase();
      const merchants = (await finance.call("merchants.list", {})).filter(
        (merchant) => needle === undefined || merchant.name.toLocaleLowerCase().includes(needle),
      );
      const { rows, total, truncated } = capped(merchants);
      return { merchants: rows.map((merchant) => ({ id: merchant.id, name: merchant.name })), total_count: total, truncated };
    },

    async get_tags() {
      const { rows, total, truncated } = capped(await finance.call("tags.list", {}));
      return { tags: rows.map((tag) => ({ id: tag.id, name: tag.name, color: tag.color })), total_count: total, truncated };
    },

    async create_tag(args) {
      const tag = await finance.call("tags.create", { tag: { name: args.name, ...(args.color && { color: args.color }) } });
      return { tag: { id: tag.id, name: tag.name, color: tag.color }, message: `Created the tag "${tag.name}".` };
    },
  };
}
