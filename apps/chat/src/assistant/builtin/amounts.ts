import type { GetIncomeStatementResult, IncomeStatementGroup } from "@hearth/contracts";
import type { Answer } from "./answer-text";
import { dayRangeText, listText, moneyText, type Wording } from "./format";
import type { Intent } from "./intent";
import { missingRatesSentence } from "./missing-rates";
import type { Period } from "./periods";
import { findSubject, type Subject, type SubjectSearch } from "./subject";
import type { Tools } from "./tool-calls";

/** Which side of the statement a question asks about. */
export type Side = "spending" | "income";

/** How many of the largest groups an overall answer names. */
const TOP_GROUPS = 3;

/** "last month (Oct 1 – 31, 2026)": the period as named, with its exact days. */
export function periodText(period: Pick<Period, "label">, statement: Pick<GetIncomeStatementResult, "start_date" | "end_date">, wording: Wording): string {
  return `${period.label} (${dayRangeText(statement.start_date, statement.end_date, wording)})`;
}

/**
 * The side a subject's question is about: an income category's is income whatever the verb
 * ("how much did I get from Salary"); otherwise what the question asked.
 */
export function sideOf(asked: Side, subject: Subject | null): Side {
  if (subject?.dimension === "category") return subject.item.classification === "income" ? "income" : "spending";
  return asked;
}

/** The subject's groups on one side: for a category, its own and its subcategories'. */
function subjectGroups(
  statement: GetIncomeStatementResult,
  side: Side,
  subject: Subject,
): { own: IncomeStatementGroup | null; children: IncomeStatementGroup[] } {
  const groups = side === "income" ? statement.income : statement.spending;
  const own = groups.find((group) => group.id === subject.item.id) ?? null;
  if (subject.dimension !== "category") return { own, children: [] };
  const childIds = new Set(subject.categories.filter((category) => category.parent?.id === subject.item.id).map((category) => category.id));
  return { own, children: groups.filter((group) => group.id !== null && childIds.has(group.id)) };
}

/** The subject's total on one side, subcategories included, in minor units. */
export function subjectTotalCents(statement: GetIncomeStatementResult, side: Side, subject: Subject): number {
  const { own, children } = subjectGroups(statement, side, subject);
  return (own?.amount_cents ?? 0) + children.reduce((sum, group) => sum + group.amount_cents, 0);
}

function subjectPhrase(subject: Subject, side: Side): string {
  if (subject.dimension === "tag") return side === "spending" ? `on things tagged ${subject.item.name}` : `tagged ${subject.item.name}`;
  if (subject.dimension === "merchant") return side === "spending" ? `at ${subject.item.name}` : `from ${subject.item.name}`;
  return side === "spending" ? `on ${subject.item.name}` : `from ${subject.item.name}`;
}

const verbOf = (side: Side) => (side === "spending" ? "spent" : "received");
const countText = (count: number) => (count === 1 ? "1 transaction" : `${count} transactions`);

/**
 * "You spent $1,234.56 on Groceries last month (Oct 1 – 31, 2026)." A category's figure includes
 * its subcategories (then broken down); the other side is mentioned when it has money too
 * (refunds in a spending category). For a category the statement is grouped by category; for a
 * merchant or tag it is filtered to it.
 */
export function answerSubjectAmount(statement: GetIncomeStatementResult, subject: Subject, side: Side, period: Period, wording: Wording): Answer {
  const money = (cents: number) => moneyText(cents, statement.currency, wording);
  const { own, children } = subjectGroups(statement, side, subject);
  const total = subjectTotalCents(statement, side, subject);
  const count = (own?.transactions_count ?? 0) + children.reduce((sum, group) => sum + group.transactions_count, 0);
  const answer: Answer = [
    `You ${verbOf(side)} ${money(total)} ${subjectPhrase(subject, side)} ${periodText(period, statement, wording)}${count > 0 ? `, across ${countText(count)}` : ""}.`,
  ];
  if (children.length > 0) {
    const parts = children.map((group) => `${money(group.amount_cents)} in ${group.name}`);
    answer.push(`That includes ${listText(parts)}${own ? `, besides ${money(own.amount_cents)} in ${subject.item.name} itself` : ""}.`);
  }
  const otherSide: Side = side === "spending" ? "income" : "spending";
  const other = subjectTotalCents(statement, otherSide, subject);
  if (other > 0) answer.push(`You also ${verbOf(otherSide)} ${money(other)} ${subjectPhrase(subject, otherSide)} in that period.`);
  return [...answer, ...missingRatesSentence(statement.missing_exchange_rates)];
}

const GROUP_WORDS = { category: "categories", merchant: "merchants", tag: "tags" } as const;

function topGroups(groups: readonly IncomeStatementGroup[], money: (cents: number) => string): string {
  return listText(groups.slice(0, TOP_GROUPS).map((group) => `${group.name} (${money(group.amount_cents)})`));
}

/** "You spent $X in total this month (...)." with the largest categories (or merchants, tags). */
export function answerTotal(statement: GetIncomeStatementResult, side: Side, period: Period, wording: Wording): Answer {
  const money = (cents: number) => moneyText(cents, statement.currency, wording);
  const when = periodText(period, statement, wording);
  const groups = side === "spending" ? statement.spending : statement.income;
  const total = side === "spending" ? statement.spending_total_cents : statement.income_total_cents;
  const answer: Answer = side === "spending" ? [`You spent ${money(total)} in total ${when}.`] : [`Your income was ${money(total)} ${when}.`];
  if (groups.length === 1) answer.push(`All of it was in ${groups[0]!.name}.`);
  else if (groups.length > 1) answer.push(`The largest ${GROUP_WORDS[statement.group_by]} were ${topGroups(groups, money)}.`);
  return [...answer, ...missingRatesSentence(statement.missing_exchange_rates)];
}

/** "You earned $I and spent $S last month (...), a net of $N." */
export function answerCashFlow(statement: GetIncomeStatementResult, period: Period, wording: Wording): Answer {
  const money = (cents: number) => moneyText(cents, statement.currency, wording);
  const net = statement.net_cents;
  const verdict = net > 0 ? "so you saved" : net < 0 ? "so you spent more than you earned: a net of" : "so you broke even at";
  return [
    `You earned ${money(statement.income_total_cents)} and spent ${money(statement.spending_total_cents)} ${periodText(period, statement, wording)}, ${verdict} ${money(net)}.`,
    ...missingRatesSentence(statement.missing_exchange_rates),
  ];
}

/** Two things of one name ("Other" under Food and under Transport), or two names in one question ("Uber and Lyft"). */
function ambiguityText({ dimension, name, names }: Extract<SubjectSearch, { kind: "ambiguous" }>): string {
  const plural = dimension === "category" ? "categories" : `${dimension}s`;
  return names.every((other) => other.toLowerCase().endsWith(name.toLowerCase()))
    ? `'${name}' could be more than one ${dimension}: ${listText(names)}. Which one do you mean?`
    : `You named more than one of your ${plural} (${listText(names)}); please ask about one at a time.`;
}

/** With no period named, amounts are this month's so far. */
function periodOrThisMonth(intent: Intent, thisMonth: Period): Period {
  return intent.period ?? thisMonth;
}

/** Questions about spending, income or both: at most one list call to find the subject and one statement call. */
export async function replyAmounts(tools: Tools, intent: Intent, thisMonth: Period, wording: Wording): Promise<Answer> {
  const period = periodOrThisMonth(intent, thisMonth);
  const dates = { start_date: period.start, end_date: period.end };
  const search = intent.kind === "cash_flow" ? ({ kind: "none" } as const) : await findSubject(tools, intent);
  if (search.kind === "not_found") return [`I couldn't find a category, merchant or tag called '${search.name}'.`];
  if (search.kind === "ambiguous") return [ambiguityText(search)];
  if (search.kind === "none") {
    const groupBy = intent.dimensionHint ?? "category";
    const statement = await tools.call("get_income_statement", { ...dates, group_by: groupBy });
    if (intent.kind === "cash_flow") return answerCashFlow(statement, period, wording);
    return answerTotal(statement, intent.kind === "income" ? "income" : "spending", period, wording);
  }
  const { subject } = search;
  const filter = subject.dimension === "category" ? {} : subject.dimension === "merchant" ? { merchant_id: subject.item.id } : { tag_id: subject.item.id };
  const statement = await tools.call("get_income_statement", { ...dates, group_by: subject.dimension, ...filter });
  return answerSubjectAmount(statement, subject, sideOf(intent.kind === "income" ? "income" : "spending", subject), period, wording);
}
