import { moneyOf } from "@hearth/contracts";
import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";
import { readCapped, refOf } from "./tool-shapes";

/** get_recurring_transactions: amounts as their size, income told apart by its sign (negative in Sure). */
export function recurringTool(finance: FinanceClient): Pick<ToolHandlers, "get_recurring_transactions"> {
  return {
    async get_recurring_transactions(args) {
      const { rows, total, truncated } = await readCapped(async (page, perPage) => {
        const answer = await finance.call("recurringTransactions.list", {
          page,
          per_page: perPage,
          ...(args.status !== "all" && { status: args.status }),
          ...(args.account_id && { account_id: args.account_id }),
        });
        return { rows: answer.recurring_transactions, total: answer.pagination.total_count };
      });
      return {
        recurring_transactions: rows.map((recurring) => ({
          id: recurring.id,
          name: recurring.name ?? recurring.merchant?.name ?? "Unnamed",
          ...moneyOf("amount", Math.abs(recurring.amount_cents), recurring.currency),
          currency: recurring.currency,
          classification: recurring.amount_cents < 0 ? ("income" as const) : ("expense" as const),
          status: recurring.status,
          expected_day_of_month: recurring.expected_day_of_month,
          next_expected_date: recurring.next_expected_date,
          last_occurrence_date: recurring.last_occurrence_date,
          occurrence_count: recurring.occurrence_count,
          manual: recurring.manual,
          account: refOf(recurring.account),
          merchant: refOf(recurring.merchant),
        })),
        total_count: total,
        truncated,
      };
    },
  };
}
