import type { AssistantRecurringTransaction, GetRecurringTransactionsResult } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { addDays } from "./calendar";
import { dayRangeText, listText, moneyText, shortDayText, type Wording } from "./format";
import type { Intent } from "./intent";
import type { Period } from "./periods";
import type { Tools } from "./tool-calls";

/** How far ahead "upcoming" looks when the question names no period. */
export const UPCOMING_DAYS = 30;
/** How many bills an answer lists one by one (the total counts them all). */
const MAX_LISTED = 15;

/** The days to look in: the named period from today to its end ("this month": the rest of it), else the next 30 days. */
export function billWindowOf(intent: Intent, today: string): Period {
  const period = intent.period;
  if (period === null || period.fullEnd < today) {
    const end = addDays(today, UPCOMING_DAYS - 1);
    return { start: today, end, fullEnd: end, label: `in the next ${UPCOMING_DAYS} days` };
  }
  return { ...period, start: period.start < today ? today : period.start, end: period.fullEnd };
}

/** Active expense recurrences expected in the window, soonest first. */
export function billsDue(result: GetRecurringTransactionsResult, window: Period): AssistantRecurringTransaction[] {
  return result.recurring_transactions
    .filter((bill) => bill.status === "active" && bill.classification === "expense")
    .filter((bill) => bill.next_expected_date >= window.start && bill.next_expected_date <= window.end)
    .sort((a, b) => a.next_expected_date.localeCompare(b.next_expected_date) || a.name.localeCompare(b.name));
}

/** Totals per currency, the family's first: bills in several currencies are never added together. */
function totalsText(bills: readonly AssistantRecurringTransaction[], wording: Wording): string {
  const byCurrency = new Map<string, number>();
  for (const bill of bills) byCurrency.set(bill.currency, (byCurrency.get(bill.currency) ?? 0) + bill.amount_cents);
  const currencies = [...byCurrency.keys()].sort((a, b) => Number(b === wording.currency) - Number(a === wording.currency) || a.localeCompare(b));
  return listText(currencies.map((currency) => moneyText(byCurrency.get(currency)!, currency, wording)));
}

/** "You have 3 bills due in the next 30 days (...), $1,545.98 in all:" then one line per bill. */
export function answerUpcomingBills(result: GetRecurringTransactionsResult, window: Period, wording: Wording): Answer {
  const bills = billsDue(result, window);
  const when = `${window.label} (${dayRangeText(window.start, window.end, wording)})`;
  if (bills.length === 0) return [`You have no bills due ${when}.`];
  const listed = bills.slice(0, MAX_LISTED);
  return [
    `You have ${bills.length === 1 ? "1 bill" : `${bills.length} bills`} due ${when}, ${totalsText(bills, wording)} in all:`,
    ...listed.map((bill) => `- ${bill.name}: ${moneyText(bill.amount_cents, bill.currency, wording)} on ${shortDayText(bill.next_expected_date, wording)}`),
    ...(bills.length > listed.length ? [`…and ${bills.length - listed.length} more.`] : []),
  ];
}

export async function replyUpcomingBills(tools: Tools, intent: Intent, today: string, wording: Wording): Promise<Answer> {
  const result = await tools.call("get_recurring_transactions", { status: "active" });
  return answerUpcomingBills(result, billWindowOf(intent, today), wording);
}
