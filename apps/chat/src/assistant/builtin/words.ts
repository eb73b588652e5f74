/**
 * Questions and names as lists of plain words, so every rule after this compares whole words
 * instead of running patterns over raw text (which hostile input could make slow).
 */

/** Only the start of a question is read: enough for any real question, and it bounds the work. */
export const MAX_QUESTION_CHARS = 500;

/**
 * One word: letters or digits, with inner apostrophes kept ("amazon's", "don't") so a possessive
 * can be dropped whole. Each piece is a plain class repeated once, so matching is linear.
 */
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;

/**
 * Lower-cased words of a text; possessives are dropped ("Amazon's" → "amazon"), other apostrophes
 * removed ("don't" → "dont") and "&" read as "and" ("Food & Drink" meets "food and drink").
 */
export function wordsOf(text: string, maxChars = MAX_QUESTION_CHARS): string[] {
  const head = text
    .slice(0, maxChars)
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replaceAll("&", " and ");
  const words: string[] = [];
  for (const [word] of head.matchAll(WORD)) {
    words.push(word.endsWith("'s") ? word.slice(0, -2).replaceAll("'", "") : word.replaceAll("'", ""));
  }
  return words;
}

/**
 * A word's singular-ish stem so "groceries" meets "Grocery" and "bills" meets "Bill": the same
 * rough rule is applied to both sides, so it only has to be consistent, not correct English.
 */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

/** Numbers as people write them in questions ("last three months", "top five"). */
const NUMBER_WORDS = new Map<string, number>([
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["seven", 7],
  ["eight", 8],
  ["nine", 9],
  ["ten", 10],
  ["eleven", 11],
  ["twelve", 12],
  ["fourteen", 14],
  ["fifteen", 15],
  ["twenty", 20],
  ["thirty", 30],
  ["sixty", 60],
  ["ninety", 90],
]);

/** A word that is a number: digits (at most `maxDigits`) or a number word; null otherwise. */
export function numberOfWord(word: string | undefined, maxDigits: number): number | null {
  if (word === undefined) return null;
  if (word.length <= maxDigits && /^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS.get(word) ?? null;
}
