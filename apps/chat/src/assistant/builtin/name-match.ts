import { stem, wordsOf } from "./words";

/** Anything with a name the question may mention: a category, merchant, tag or account. */
export interface Named {
  id: string;
  name: string;
}

/** Where a name was found in the question's words. */
export interface NameMatch<T extends Named> {
  item: T;
  /** Index of the first question word it covers. */
  from: number;
  /** Index after the last. */
  to: number;
}

/** A name's own words are read with a cap too: names are short, and this bounds hostile ones. */
const MAX_NAME_CHARS = 200;

interface Candidate<T extends Named> {
  item: T;
  stems: string[];
}

export interface FindNamesOptions {
  /**
   * Words that on their own say what the question is about rather than name a thing ("income",
   * "spending", "my"): a name made only of such words counts only right after an `introducer`
   * ("on Income"), so a category called "Income" does not swallow "what was my income".
   */
  weakWords?: ReadonlySet<string>;
  introducers?: ReadonlySet<string>;
}

/**
 * The names in `items` that occur in `words` as whole words, case-insensitively and tolerant of
 * plurals and possessives ("groceries" finds "Grocery", "amazon's" finds "Amazon"). Only the longest
 * matches are returned (several when several names are equally long: the caller says it is
 * ambiguous); `null` entries in `words` are skipped (words already taken, e.g. by the period).
 */
export function findNames<T extends Named>(words: readonly (string | null)[], items: readonly T[], options: FindNamesOptions = {}): NameMatch<T>[] {
  const stems = words.map((word) => (word === null ? null : stem(word)));
  const weakStems = new Set([...(options.weakWords ?? [])].map(stem));
  const byFirstStem = new Map<string, Candidate<T>[]>();
  for (const item of items) {
    const nameStems = wordsOf(item.name, MAX_NAME_CHARS).map(stem);
    const first = nameStems[0];
    if (first === undefined || nameStems.length > stems.length) continue;
    const list = byFirstStem.get(first) ?? [];
    list.push({ item, stems: nameStems });
    byFirstStem.set(first, list);
  }

  let best: NameMatch<T>[] = [];
  let bestLength = 0;
  for (let at = 0; at < stems.length; at++) {
    const first = stems[at];
    if (first === null || first === undefined) continue;
    for (const candidate of byFirstStem.get(first) ?? []) {
      const length = candidate.stems.length;
      if (length < bestLength || !occursAt(stems, at, candidate.stems)) continue;
      if (candidate.stems.every((word) => weakStems.has(word)) && !options.introducers?.has(words[at - 1] ?? "")) continue;
      if (length > bestLength) {
        best = [];
        bestLength = length;
      }
      if (!best.some((match) => match.item.id === candidate.item.id)) best.push({ item: candidate.item, from: at, to: at + length });
    }
  }
  return best;
}

function occursAt(stems: readonly (string | null)[], at: number, name: readonly string[]): boolean {
  for (let offset = 0; offset < name.length; offset++) {
    if (stems[at + offset] !== name[offset]) return false;
  }
  return true;
}
