import { GetIncomeStatementResultSchema } from "@hearth/contracts";
import type { FinanceCall } from "./finance-call";
import type { ToolHandlers } from "./tool-handlers";

/** get_income_statement: finance's internal insights.incomeStatement answers in the tool's shape already. */
export function incomeStatementTool(finance: FinanceCall): Pick<ToolHandlers, "get_income_statement"> {
  return {
    async get_income_statement(args) {
      return GetIncomeStatementResultSchema.parse(await finance("insights.incomeStatement", "mutation", args));
    },
  };
}
