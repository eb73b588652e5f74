import type { AssistantToolName } from "@hearth/contracts";
import type { Answer } from "./answer-text";

const DATA_OF: Partial<Record<AssistantToolName, string>> = {
  get_accounts: "your accounts",
  get_transactions: "your transactions",
  get_balance_sheet: "your balance sheet",
  get_income_statement: "your income and spending",
  get_budget: "your budget",
  get_recurring_transactions: "your recurring transactions",
  get_categories: "your categories",
  get_merchants: "your merchants",
  get_tags: "your tags",
};

/** What the answer says when a tool answered `{ error, hint }`: plainly that the data was not to be had. */
export function answerToolFailure(tool: AssistantToolName): Answer {
  return [`Sorry, I couldn't get ${DATA_OF[tool] ?? "the data"} just now, so I can't answer that. Please try again in a moment.`];
}
