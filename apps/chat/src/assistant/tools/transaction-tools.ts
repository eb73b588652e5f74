import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";
import { assistantTransactionOf } from "./tool-shapes";

/** get_transactions (one page, as asked) and update_transaction (category, tags, notes only). */
export function transactionTools(finance: FinanceClient): Pick<ToolHandlers, "get_transactions" | "update_transaction"> {
  return {
    async get_transactions(args) {
      const answer = await finance.call("transactions.list", args);
      return { ...answer.pagination, transactions: answer.transactions.map(assistantTransactionOf) };
    },

    async update_transaction({ id, ...changes }) {
      const transaction = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const updated = await finance.call("transactions.update", { id, transaction });
      const what = Object.keys(transaction).map((field) => ({ category_id: "category", tag_ids: "tags", notes: "notes" })[field] ?? field);
      return { transaction: assistantTransactionOf(updated), message: `Updated the ${what.join(", ")} of "${updated.name}" (${updated.date}).` };
    },
  };
}
