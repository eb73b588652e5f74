import type { AssistantBudgetLine, GetBudgetResult } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { dayRangeText, listText, moneyText, type Wording } from "./format";
import { INTRODUCERS, QUESTION_WORDS, type Intent } from "./intent";
import { findNames } from "./name-match";
import { ToolUnavailable, type Tools } from "./tool-calls";

/** Words about budgets that name no category. */
const BUDGET_WORDS = new Set([...QUESTION_WORDS, "budget", "budgets", "budgeted", "over", "under", "left", "remaining", "status", "track"]);

/** How many over-budget categories an answer names. */
const MAX_LISTED = 10;

/** "you've spent $X of $Y, so $Z is left" or "so you're $Z over". */
function spentOf(spent: string, budgeted: string, available: number, money: (cents: number) => string): string {
  const rest = available >= 0 ? `so ${money(available)} is left` : `so you're ${money(-available)} over`;
  return `you've spent ${spent} of ${budgeted}, ${rest}`;
}

/**
 * The budget's standing: total spent against the budget and what is left, the categories over
 * their limit, and, when the question names a budgeted category, that category's line.
 */
export function answerBudget(budget: GetBudgetResult, line: AssistantBudgetLine | null, wording: Wording): Answer {
  const money = (cents: number) => moneyText(cents, budget.currency, wording);
  const when = `${budget.name} (${dayRangeText(budget.start_date, budget.end_date, wording)})`;
  if (line) {
    return [
      `For ${line.name} in ${when}: ${spentOf(money(line.actual_spending_cents), `${money(line.budgeted_cents)} budgeted`, line.available_to_spend_cents, money)}.`,
    ];
  }
  const answer: Answer =
    budget.initialized && budget.budgeted_spending_cents !== null
      ? [
          `In ${when} ${spentOf(money(budget.actual_spending_cents), `your ${money(budget.budgeted_spending_cents)} budget`, budget.available_to_spend_cents, money)}.`,
        ]
      : [`You haven't set a total budget for ${when} yet; you've spent ${money(budget.actual_spending_cents)} so far.`];
  // As Sure tells them apart: over a limit of its own, spending with no limit, and a subcategory
  // sharing its parent's limit (over only when the parent is, and then said there).
  const over = budget.categories.filter((category) => category.over_budget && !category.inherits_parent_budget && category.budgeted_cents > 0);
  // A parent's spending counts its subcategories': those with a limit of their own are not "without a budget".
  const withOwnLimit = (parentId: string) =>
    budget.categories
      .filter((child) => child.parent?.id === parentId && !child.inherits_parent_budget && child.budgeted_cents > 0)
      .reduce((sum, child) => sum + child.actual_spending_cents, 0);
  const unbudgeted = budget.categories
    .filter((category) => !category.inherits_parent_budget && category.budgeted_cents === 0)
    .map((category) => ({ ...category, actual_spending_cents: category.actual_spending_cents - withOwnLimit(category.id) }))
    .filter((category) => category.actual_spending_cents > 0);
  const more = (count: number) => (count > MAX_LISTED ? ` and ${count - MAX_LISTED} more` : "");
  if (over.length > 0) {
    const listed = over
      .slice(0, MAX_LISTED)
      .map((category) => `${category.name} (${money(category.actual_spending_cents)} of ${money(category.budgeted_cents)})`);
    answer.push(`Over budget: ${listText(listed)}${more(over.length)}.`);
  } else if (budget.categories.length > 0) {
    answer.push("No category is over its budget.");
  }
  if (unbudgeted.length > 0) {
    const listed = unbudgeted.slice(0, MAX_LISTED).map((category) => `${category.name} (${money(category.actual_spending_cents)})`);
    answer.push(`Spent without a budget: ${listText(listed)}${more(unbudgeted.length)}.`);
  }
  return answer;
}

/**
 * The budget month a question means: the month it names ("last month", "in March"), else the
 * current one. A period containing today ("this month") is left to the tool's default, which knows
 * the family's month start day (with months starting on the 25th, 15 November is in October's).
 */
export function budgetMonthOf(intent: Intent, today: string): string | undefined {
  const period = intent.period;
  if (!period || period.start.slice(0, 7) !== period.fullEnd.slice(0, 7)) return undefined;
  if (period.start <= today && today <= period.fullEnd) return undefined;
  return period.start.slice(0, 7);
}

export async function replyBudget(tools: Tools, intent: Intent, today: string, wording: Wording): Promise<Answer> {
  const month = budgetMonthOf(intent, today);
  let budget: GetBudgetResult;
  try {
    budget = await tools.call("get_budget", month === undefined ? {} : { month });
  } catch (error) {
    if (error instanceof ToolUnavailable && error.code.includes("not_found")) {
      return [month === undefined ? "You don't have a budget for this month yet." : `You don't have a budget for ${monthName(month, wording)}.`];
    }
    throw error;
  }
  const matches = findNames(intent.subjectWords, budget.categories, { weakWords: BUDGET_WORDS, introducers: INTRODUCERS });
  if (matches.length === 1) return answerBudget(budget, matches[0]!.item, wording);
  const mentioned = (intent.mentionedName ?? "")
    .split(" ")
    .filter((word) => word !== "" && !BUDGET_WORDS.has(word))
    .join(" ");
  const missing = matches.length === 0 && mentioned !== "" ? [`I couldn't find '${mentioned}' among your budget's categories.`] : [];
  return [...missing, ...answerBudget(budget, null, wording)];
}

function monthName(month: string, wording: Wording): string {
  const [year, number] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(wording.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(year!, number! - 1, 1)));
}
