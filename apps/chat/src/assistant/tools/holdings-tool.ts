import { MAX_PAGE } from "@hearth/contracts";
import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";

/** get_holdings: the holdings of one day, by default the latest day any account has them. */
export function holdingsTool(finance: FinanceClient): Pick<ToolHandlers, "get_holdings"> {
  /** Finance lists holdings oldest day first: the last row of the whole list is of the latest day. */
  async function latestDay(accountId: string | undefined): Promise<string | null> {
    const scope = accountId ? { account_id: accountId } : {};
    const { pagination } = await finance.call("holdings.list", { ...scope, page: 1, per_page: 1 });
    if (pagination.total_count === 0) return null;
    const last = await finance.call("holdings.list", { ...scope, page: Math.min(pagination.total_count, MAX_PAGE), per_page: 1 });
    return last.holdings[0]?.date ?? null;
  }

  return {
    async get_holdings(args) {
      const date = args.date ?? (await latestDay(args.account_id));
      if (date === null) return { date: null, page: args.page, per_page: args.per_page, total_count: 0, total_pages: 0, holdings: [] };
      const answer = await finance.call("holdings.list", {
        date,
        page: args.page,
        per_page: args.per_page,
        ...(args.account_id && { account_id: args.account_id }),
      });
      return {
        date,
        ...answer.pagination,
        holdings: answer.holdings.map((holding) => ({
          id: holding.id,
          date: holding.date,
          account: { id: holding.account.id, name: holding.account.name },
          security: holding.security,
          qty: holding.qty,
          price: holding.price,
          amount: holding.amount,
          amount_cents: holding.amount_cents,
          currency: holding.currency,
          avg_cost: holding.avg_cost,
        })),
      };
    },
  };
}
