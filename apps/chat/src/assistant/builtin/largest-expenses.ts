import { MAX_PER_PAGE, decimalOf, minorUnitDigits, type AssistantTransaction } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { dayRangeText, moneyText, shortDayText, type Wording } from "./format";
import type { Intent } from "./intent";
import type { Period } from "./periods";
import type { Tools } from "./tool-calls";

/** How many expenses "largest expenses" lists when the question gives no number. */
export const DEFAULT_LARGEST = 5;
/** get_transactions has no order by amount: the search raises a floor instead, in at most this many calls. */
const MAX_CALLS = 5;

/**
 * An expense as the income statement counts spending: not excluded, and not a transfer or payment
 * between the family's own accounts. One-time expenses count here (they are out of the
 * statement's averages, not out of what was paid).
 */
export function isRealExpense(transaction: AssistantTransaction): boolean {
  return transaction.classification === "expense" && !transaction.excluded && (transaction.kind === "standard" || transaction.kind === "one_time");
}

/** Largest first; equal amounts newest first, then by name, so the order is stable. */
export function byAmountDescending(a: AssistantTransaction, b: AssistantTransaction): number {
  return b.amount_cents - a.amount_cents || b.date.localeCompare(a.date) || a.name.localeCompare(b.name);
}

/** The `count` largest real expenses in `currency`: amounts of different currencies are never compared by their digits. */
export function largestOf(transactions: readonly AssistantTransaction[], count: number, currency: string): AssistantTransaction[] {
  return transactions
    .filter((transaction) => transaction.currency === currency && isRealExpense(transaction))
    .sort(byAmountDescending)
    .slice(0, count);
}

/** The amount as get_transactions' min_amount takes it: major units, exact ("12.34" read as a number). */
function majorUnits(cents: number, currency: string): number {
  return Number(decimalOf(cents, minorUnitDigits(currency)));
}

/**
 * The `count` largest expenses of a period in the family's currency. One page holds them all in a
 * quiet period. Otherwise the `count`-th largest of the page is a floor at least `count` expenses
 * reach, so the page of those at or above it (min_amount, read in each transaction's currency)
 * holds the answer once it holds them all; while it does not, the floor is raised from that page.
 * Expenses in other currencies are not ranked (¥10,000 is not more than $80); whether there were
 * any is reported, so the answer can say so.
 */
export async function findLargestExpenses(
  tools: Tools,
  period: Period,
  count: number,
  currency: string,
): Promise<{ expenses: AssistantTransaction[]; otherCurrencies: string[] }> {
  const query = { start_date: period.start, end_date: period.end, type: "expense", per_page: MAX_PER_PAGE } as const;
  let floor: number | undefined;
  let pageNumber = 1;
  let page = await tools.call("get_transactions", query);
  let rows = page.transactions;
  const otherCurrencies = new Set<string>();
  const noteOthers = () => rows.filter((t) => t.currency !== currency && isRealExpense(t)).forEach((t) => otherCurrencies.add(t.currency));
  noteOthers();
  for (let calls = 1; calls < MAX_CALLS && page.total_count > rows.length; calls++) {
    const candidates = largestOf(rows, count, currency);
    const last = candidates.at(-1);
    if (candidates.length < count || last === undefined) {
      // Too few in the family's currency among what was read (other currencies crowd the page): read on.
      pageNumber++;
      page = await tools.call("get_transactions", { ...query, page: pageNumber, ...(floor === undefined ? {} : { min_amount: majorUnits(floor, currency) }) });
      rows = [...rows, ...page.transactions];
      noteOthers();
      continue;
    }
    // The floor cannot rise (many equal amounts): what was read is the best known.
    if (floor !== undefined && last.amount_cents <= floor) break;
    floor = last.amount_cents;
    pageNumber = 1;
    page = await tools.call("get_transactions", { ...query, min_amount: majorUnits(floor, currency) });
    rows = page.transactions;
    noteOthers();
  }
  return { expenses: largestOf(rows, count, currency), otherCurrencies: [...otherCurrencies].sort() };
}

/** "Your 5 largest expenses last month (...) were:" and one line each. */
export function answerLargestExpenses(expenses: readonly AssistantTransaction[], period: Period, wording: Wording): Answer {
  const when = `${period.label} (${dayRangeText(period.start, period.end, wording)})`;
  if (expenses.length === 0) return [`You had no expenses ${when}.`];
  const sameYear = period.start.slice(0, 4) === period.end.slice(0, 4);
  const dayOf = (day: string) => (sameYear ? shortDayText(day, wording) : dayRangeText(day, day, wording));
  const lead = expenses.length === 1 ? `Your largest expense ${when} was:` : `Your ${expenses.length} largest expenses ${when} were:`;
  return [
    lead,
    ...expenses.map((expense) => {
      const where = expense.merchant?.name ?? expense.name;
      const category = expense.category ? ` (${expense.category.name})` : "";
      return `- ${moneyText(expense.amount_cents, expense.currency, wording)}: ${where} on ${dayOf(expense.date)}${category}`;
    }),
  ];
}

export async function replyLargestExpenses(tools: Tools, intent: Intent, thisMonth: Period, wording: Wording): Promise<Answer> {
  const period = intent.period ?? thisMonth;
  const { expenses, otherCurrencies } = await findLargestExpenses(tools, period, intent.count ?? DEFAULT_LARGEST, wording.currency);
  const answer = answerLargestExpenses(expenses, period, wording);
  if (otherCurrencies.length === 0) return answer;
  return [...answer, `(Only expenses in ${wording.currency} are ranked; there were also expenses in ${otherCurrencies.join(", ")}.)`];
}
