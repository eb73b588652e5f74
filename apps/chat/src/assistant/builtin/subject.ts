import type { AssistantCategory } from "@hearth/contracts";
import { QUESTION_WORDS, type Dimension, type Intent } from "./intent";
import { INTRODUCERS } from "./intent";
import { findNames, type Named, type NameMatch } from "./name-match";
import type { Tools } from "./tool-calls";

/** What an amount question is about: one category (with the family's categories, for its subcategories), merchant or tag. */
export type Subject =
  | { dimension: "category"; item: AssistantCategory; categories: AssistantCategory[] }
  | { dimension: "merchant"; item: Named }
  | { dimension: "tag"; item: Named };

/** The outcome of looking for the question's subject in the family's names. */
export type SubjectSearch =
  | { kind: "found"; subject: Subject }
  /** The question names nothing: the answer is about everything. */
  | { kind: "none" }
  | { kind: "not_found"; name: string }
  /** Several equally long names match (two "Other" subcategories): `name` as asked, `names` told apart. */
  | { kind: "ambiguous"; dimension: Dimension; name: string; names: string[] };

/** Words that say what is asked about money, never a name on their own (a category called "Income" needs "on Income"). */
const WEAK_WORDS = new Set([...QUESTION_WORDS, "spending", "income", "earnings", "salary", "bills", "expenses", "savings", "net"]);

const DEFAULT_ORDER: readonly Dimension[] = ["category", "merchant", "tag"];

/** The lists to look in, the hinted one first ("at Amazon": merchants), then the others. */
function searchOrder(hint: Dimension | null): Dimension[] {
  return hint === null ? [...DEFAULT_ORDER] : [hint, ...DEFAULT_ORDER.filter((dimension) => dimension !== hint)];
}

/**
 * Whether any word is left that could be part of a name: one that is not a weak word, or a weak
 * one led in ("from Salary"). If not, no list is fetched at all.
 */
export function mayNameSomething(intent: Intent): boolean {
  return intent.subjectWords.some((word, at) => {
    if (word === null || INTRODUCERS.has(word) || QUESTION_WORDS.has(word)) return false;
    return !WEAK_WORDS.has(word) || INTRODUCERS.has(intent.subjectWords[at - 1] ?? "");
  });
}

/**
 * Finds the category, merchant or tag a question names, fetching one list at a time (usually one
 * call) and stopping at the first list with a match; the longest name wins, and equally long
 * different names are ambiguous. A merchant list cut short is searched again by the mentioned name.
 */
export async function findSubject(tools: Tools, intent: Intent): Promise<SubjectSearch> {
  if (!mayNameSomething(intent)) return { kind: "none" };
  const options = { weakWords: WEAK_WORDS, introducers: INTRODUCERS };
  for (const dimension of searchOrder(intent.dimensionHint)) {
    if (dimension === "category") {
      const { categories } = await tools.call("get_categories", {});
      const found = settle(findNames(intent.subjectWords, categories, options));
      if (found) return found.kind === "one" ? { kind: "found", subject: { dimension, item: found.item, categories } } : ambiguity(dimension, found);
    } else if (dimension === "merchant") {
      const list = await tools.call("get_merchants", {});
      let found = settle(findNames(intent.subjectWords, list.merchants, options));
      if (!found && list.truncated && intent.mentionedName !== null) {
        const searched = await tools.call("get_merchants", { search: intent.mentionedName.slice(0, 100) });
        found = settle(findNames(intent.subjectWords, searched.merchants, options));
      }
      if (found) return found.kind === "one" ? { kind: "found", subject: { dimension, item: found.item } } : ambiguity(dimension, found);
    } else {
      const { tags } = await tools.call("get_tags", {});
      const found = settle(findNames(intent.subjectWords, tags, options));
      if (found) return found.kind === "one" ? { kind: "found", subject: { dimension, item: found.item } } : ambiguity(dimension, found);
    }
  }
  return intent.mentionedName === null ? { kind: "none" } : { kind: "not_found", name: intent.mentionedName };
}

function settle<T extends Named>(matches: NameMatch<T>[]): { kind: "one"; item: T } | { kind: "several"; name: string; names: string[] } | null {
  const [first] = matches;
  if (first === undefined) return null;
  if (matches.length === 1) return { kind: "one", item: first.item };
  // Equal names are told apart by their parents ("Food › Other"); different ones are clear as they are.
  const sameName = matches.every((match) => match.item.name.toLowerCase() === first.item.name.toLowerCase());
  return { kind: "several", name: first.item.name, names: matches.map((match) => (sameName ? nameWithParent(match.item) : match.item.name)) };
}

/** "Food › Other" for a subcategory, so two "Other"s can be told apart. */
function nameWithParent(item: Named & { parent?: { name: string } | null }): string {
  return item.parent ? `${item.parent.name} › ${item.name}` : item.name;
}

function ambiguity(dimension: Dimension, found: { name: string; names: string[] }): SubjectSearch {
  return { kind: "ambiguous", dimension, name: found.name, names: found.names };
}
