import { findPeriod, type Period } from "./periods";
import { numberOfWord, wordsOf } from "./words";

/**
 * What a question asks, read by a few keyword rules over its words (see `understand`). Names of
 * categories, merchants, tags and accounts are not resolved here: that needs the family's lists,
 * fetched only when the question needs them.
 */
export type IntentKind = "net_worth" | "account_balance" | "spending" | "income" | "cash_flow" | "budget" | "upcoming_bills" | "largest_expenses" | "help";

export type Dimension = "category" | "merchant" | "tag";

export interface Intent {
  kind: IntentKind;
  /** The period the question names, or null (each answer has its own default). */
  period: Period | null;
  /** The question's words with the period's words blanked (null), for finding names in. */
  subjectWords: (string | null)[];
  /** Which kind of name the wording points at ("at Amazon": merchant, "tagged trip": tag), if any. */
  dimensionHint: Dimension | null;
  /** The words after "on", "at", "from", "tagged"...: what to say was not found when no name matches. */
  mentionedName: string | null;
  /** For "top 3 expenses": how many. */
  count: number | null;
}

/** Word lists are written as one string each: easier to read and edit than an array per line. */
const wordList = (text: string): string[] => text.split(" ");
const wordSet = (text: string): Set<string> => new Set(wordList(text));

/** "Top N" is capped so an answer stays a readable list. */
export const MAX_LIST_COUNT = 20;

/** Words that lead into a name: "on Groceries", "at Amazon", "tagged Vacation". */
export const INTRODUCERS = wordSet("on at from for to with tagged tag category merchant in");

/** Words that are the question's own vocabulary, never part of a mentioned name. */
export const QUESTION_WORDS = wordSet(
  [
    "a about again all also altogether am amount an and any approximately are as at be been bought buy by can category cost costs could",
    "current currently did do does doing done each earn earned entire every everything exactly expense expenses family far figure for",
    "from get give go going got had has have he hello her hey hi his household how i im in income is it its ive just know last like",
    "list look looking many me merchant money much my now of ok okay on our out overall paid pay period please purchase purchases",
    "roughly same see she show so some spend spending spent stuff sum tag tagged tell thank thanks that the their them then there they",
    "things this till time times to together total transaction transactions until up us want was we went were weve what whats when",
    "where which who whole will with would you your most least mostly biggest largest top merchants categories tags does",
  ].join(" "),
);

const has = (words: readonly string[], ...wanted: string[]) => wanted.some((word) => words.includes(word));
const hasPair = (words: readonly string[], first: string, second: string) => words.some((word, at) => word === first && words[at + 1] === second);

const INCOME_WORDS = wordList("income earn earned earning earnings salary salaries wages revenue received receive inflow inflows");
const SPENDING_WORDS = wordList(
  "spend spent spending spends expense expenses cost costs pay paid paying buy bought purchase purchases purchased charged outflow outflows blow blew",
);
const LARGEST_WORDS = wordList("largest biggest highest top priciest costliest");
const LARGEST_OBJECTS = wordList("expense expenses purchase purchases transaction transactions payment payments charge charges spend spends");
const BILL_WORDS = wordList("bill bills subscription subscriptions recurring upcoming renewal renewals due");
const BUDGET_WORDS = wordList("budget budgets budgeted budgeting overspent overspending overbudget");
const BALANCE_WORDS = wordList("balance balances account accounts owe");
const CASH_FLOW_WORDS = wordList("saved save savings cashflow net");

/** Reads what a question asks. Pure: `today` (YYYY-MM-DD) anchors the named periods. */
export function understand(question: string, today: string): Intent {
  const words = wordsOf(question);
  const found = findPeriod(words, today);
  const subjectWords = words.map((word, at) => (found && at >= found.from && at < found.to ? null : word));
  const rest = subjectWords.filter((word): word is string => word !== null);
  const intent = (kind: IntentKind, count: number | null = null): Intent => ({
    kind,
    period: found?.period ?? null,
    subjectWords,
    dimensionHint: dimensionHintOf(rest),
    mentionedName: mentionedNameOf(subjectWords),
    count,
  });

  if (rest.length === 0 && !found) return intent("help");
  if (hasPair(rest, "net", "worth") || has(rest, "networth") || (has(rest, "worth") && has(rest, "am", "are")) || has(rest, "assets", "liabilities")) {
    return intent("net_worth");
  }
  if (has(rest, ...BUDGET_WORDS) || hasPair(rest, "over", "budget")) return intent("budget");
  if (has(rest, ...BILL_WORDS)) return intent("upcoming_bills");
  if (isLargestExpenses(rest)) return intent("largest_expenses", listCountOf(rest));
  const asksWhatIsIn = ["my", "our"].some((word) => hasPair(rest, "in", word)) || ["is", "have", "what", "whats"].some((word) => hasPair(rest, word, "in"));
  // "How much money do we have?": what the accounts hold.
  const asksWhatWeHave = has(rest, "have") && has(rest, "money", "cash");
  if (has(rest, ...BALANCE_WORDS) || asksWhatIsIn || asksWhatWeHave) {
    if (!has(rest, ...SPENDING_WORDS, ...INCOME_WORDS)) return intent("account_balance");
  }
  const asksIncome =
    has(rest, ...INCOME_WORDS) || hasPair(rest, "get", "paid") || hasPair(rest, "got", "paid") || hasPair(rest, "money", "in") || hasPair(rest, "came", "in");
  // "get paid" is income: "paid" then says nothing about spending.
  const spendingWords = hasPair(rest, "get", "paid") || hasPair(rest, "got", "paid") ? SPENDING_WORDS.filter((word) => word !== "paid") : SPENDING_WORDS;
  const asksSpending = has(rest, ...spendingWords) || hasPair(rest, "money", "go");
  if ((asksIncome && asksSpending) || (has(rest, ...CASH_FLOW_WORDS) && !asksIncome && !asksSpending)) return intent("cash_flow");
  if (asksIncome) return intent("income");
  if (asksSpending) return intent("spending");
  // "How much on groceries last month?", "Groceries in March?": a named period or "how much" reads as spending.
  if (found || hasPair(rest, "how", "much")) return intent("spending");
  return intent("help");
}

function isLargestExpenses(words: readonly string[]): boolean {
  if (hasPair(words, "most", "expensive")) return true;
  return has(words, ...LARGEST_WORDS) && has(words, ...LARGEST_OBJECTS);
}

/** "top 5", "5 largest", "largest 3", "ten biggest": the number next to the ranking word. */
function listCountOf(words: readonly string[]): number | null {
  for (let at = 0; at < words.length; at++) {
    if (!LARGEST_WORDS.includes(words[at]!) && !(words[at] === "most" && words[at + 1] === "expensive")) continue;
    const count = countWord(words[at + 1]) ?? countWord(words[at - 1]);
    if (count !== null) return Math.min(Math.max(count, 1), MAX_LIST_COUNT);
  }
  return null;
}

function countWord(word: string | undefined): number | null {
  return numberOfWord(word, 3);
}

function dimensionHintOf(words: readonly string[]): Dimension | null {
  if (has(words, "tag", "tagged", "tags", "labelled", "labeled")) return "tag";
  if (has(words, "category", "categories")) return "category";
  if (has(words, "merchant", "merchants", "store", "shop", "at")) return "merchant";
  return null;
}

/** Longest mentioned name kept for the "couldn't find" sentence. */
const MAX_MENTIONED_WORDS = 5;

/**
 * The words after the first introducer ("on", "at", "tagged"...) up to the next one or a blanked
 * period word, without question words at either end: "spend on pizza and beer last month" →
 * "pizza and beer". Null when nothing is left.
 */
function mentionedNameOf(words: readonly (string | null)[]): string | null {
  for (let at = 0; at < words.length; at++) {
    if (!INTRODUCERS.has(words[at] ?? "")) continue;
    let end = at + 1;
    while (end < words.length && words[end] !== null && !INTRODUCERS.has(words[end]!)) end++;
    const phrase = words.slice(at + 1, end) as string[];
    let first = 0;
    let last = phrase.length;
    while (first < last && QUESTION_WORDS.has(phrase[first]!)) first++;
    while (last > first && QUESTION_WORDS.has(phrase[last - 1]!)) last--;
    if (last > first) return phrase.slice(first, Math.min(last, first + MAX_MENTIONED_WORDS)).join(" ");
  }
  return null;
}
