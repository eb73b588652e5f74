import type { FamilyFacts } from "../assistant-types";
import { replyAccountBalances } from "./account-balances";
import { replyAmounts } from "./amounts";
import type { Answer } from "./answer-text";
import { replyBudget } from "./budget";
import { wordingOf } from "./format";
import { answerHelp, isGreeting } from "./help";
import { understand } from "./intent";
import { replyLargestExpenses } from "./largest-expenses";
import { replyNetWorth } from "./net-worth";
import { thisMonthOf } from "./periods";
import { answerToolFailure } from "./tool-failure";
import { ToolUnavailable, type Tools } from "./tool-calls";
import { replyUpcomingBills } from "./upcoming-bills";
import { wordsOf } from "./words";

/**
 * The answer to one question from the family's data: the question is read by rules, then one or
 * two tool calls fetch what it needs (a few more only to rank the largest expenses). A tool that
 * answers `{ error, hint }` makes the answer say the data could not be had; nothing is thrown for it.
 */
export async function answerQuestion(question: string, tools: Tools, family: FamilyFacts): Promise<Answer> {
  const wording = wordingOf(family);
  const intent = understand(question, family.today);
  const thisMonth = thisMonthOf(family.today);
  try {
    switch (intent.kind) {
      case "net_worth":
        return await replyNetWorth(tools, wording);
      case "account_balance":
        return await replyAccountBalances(tools, intent, wording);
      case "spending":
      case "income":
      case "cash_flow":
        return await replyAmounts(tools, intent, thisMonth, wording);
      case "budget":
        return await replyBudget(tools, intent, family.today, wording);
      case "upcoming_bills":
        return await replyUpcomingBills(tools, intent, family.today, wording);
      case "largest_expenses":
        return await replyLargestExpenses(tools, intent, thisMonth, wording);
      case "help":
        return answerHelp(isGreeting(wordsOf(question)));
    }
  } catch (error) {
    if (error instanceof ToolUnavailable) return answerToolFailure(error.tool);
    throw error;
  }
}
