/**
 * A model's text as PostgreSQL can store it: NUL and unpaired UTF-16 surrogates become U+FFFD.
 * User input is refused at the boundary when it holds them; a model's output cannot be refused, only
 * mended (else its answer could never be stored, and would stay pending until its lease ran out).
 */
export function storableText(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (one character's look around: linear). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A JSON value (a model's tool arguments, a tool's result) with every string and key made storable. */
export function storableJson<T>(value: T): T {
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  return JSON.parse(json, (_key, item: unknown) => {
    if (typeof item === "string") return storableText(item);
    if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      return Object.fromEntries(Object.entries(item).map(([key, entry]) => [storableText(key), entry]));
    }
    return item;
  }) as T;
}
