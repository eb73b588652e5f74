import type { FinanceClient } from "../../finance-client";
import type { ToolHandlers } from "./tool-handlers";

/** get_income_statement: finance's internal insights.incomeStatement answers in the tool's shape already. */
export function incomeStatementTool(finance: FinanceClient): Pick<ToolHandlers, "get_income_statement"> {
  return {
    async get_income_statement(args) {
      return finance.call("insights.incomeStatement", args);
    },
  };
}
