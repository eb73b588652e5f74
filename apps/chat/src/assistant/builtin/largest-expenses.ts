import { MAX_PER_PAGE, decimalOf, minorUnitDigits, type AssistantTransaction } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { dayRangeText, moneyText, shortDayText, type Wording } from "./format";
import type { Intent } from "./intent";
import type { Period } from "./periods";
import type { Tools } from "./tool-calls";

/** How many expenses "largest expenses" lists when the question gives no number. */
export const DEFAULT_LARGEST = 5;
/** get_transactions has no order by amount: the search raises a floor instead, in at most this many calls. */
const MAX_CALLS = 8;

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
 * The `count` largest expenses of a period in the family's currency. get_transactions lists newest
 * first, so the search reads pages until it holds every expense at or above a floor: the `count`-th
 * largest found so far, which only rises (min_amount, read in each transaction's own currency, so
 * other currencies may still crowd the pages: they are read past, never ranked: ¥10,000 is not more
 * than $80). Once every row of the floored query is read, the answer is exact; if MAX_CALLS run out
 * first it is the best found, and `complete` says so.
 */
export async function findLargestExpenses(
  tools: Tools,
  period: Period,
  count: number,
  currency: string,
): Promise<{ expenses: AssistantTransaction[]; otherCurrencies: string[]; complete: boolean }> {
  const query = { start_date: period.start, end_date: period.end, type: "expense", per_page: MAX_PER_PAGE } as const;
  const otherCurrencies = new Set<string>();
  let floor: number | undefined;
  let pageNumber = 1;
  let rows: AssistantTransaction[] = [];
  let total = 0;
  const read = async () => {
    const page = await tools.call("get_transactions", {
      ...query,
      page: pageNumber,
      ...(floor === undefined ? {} : { min_amount: majorUnits(floor, currency) }),
    });
    for (const t of page.transactions) if (t.currency !== currency && isRealExpense(t)) otherCurrencies.add(t.currency);
    rows = [...rows, ...page.transactions];
    total = page.total_count;
    return page.transactions.length;
  };
  await read();
  for (let calls = 1; rows.length < total; calls++) {
    if (calls >= MAX_CALLS) return { expenses: largestOf(rows, count, currency), otherCurrencies: [...otherCurrencies].sort(), complete: false };
    const candidates = largestOf(rows, count, currency);
    const last = candidates.at(-1);
    if (candidates.length === count && last !== undefined && (floor === undefined || last.amount_cents > floor)) {
      // A higher floor: start over with only the expenses that could still be among the largest.
      floor = last.amount_cents;
      pageNumber = 1;
      rows = [];
    } else {
      // The floor cannot rise yet (too few found, or many equal amounts): read the next page of the same query.
      pageNumber++;
    }
    if ((await read()) === 0) break;
  }
  return { expenses: largestOf(rows, count, currency), otherCurrencies: [...otherCurrencies].sort(), complete: true };
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
  const { expenses, otherCurrencies, complete } = await findLargestExpenses(tools, period, intent.count ?? DEFAULT_LARGEST, wording.currency);
  const answer = answerLargestExpenses(expenses, period, wording);
  if (!complete) answer.push("(There were too many expenses to check them all: these are the largest I found.)");
  if (otherCurrencies.length > 0) answer.push(`(Only expenses in ${wording.currency} are ranked; there were also expenses in ${otherCurrencies.join(", ")}.)`);
  return answer;
}
