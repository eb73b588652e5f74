import fc from "fast-check";

/** Text that has broken parsers, databases and event payloads before. */
export const NASTY_STRINGS = [
  "",
  " ",
  "1e300",
  "-1",
  "0",
  "1.5",
  "NaN",
  "Infinity",
  "-Infinity",
  "99999999999999999999",
  "9007199254740993",
  "0x10",
  "0000-01-01",
  "2024-02-30",
  "99999-01-01",
  "1899-12-31",
  "2024-13-01T25:61:61Z",
  "0000-01-01T00:00:00Z",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "\ud800",
  "\udfff",
  "a\ud800b",
  "\udc00\ud800",
  "nul\u0000byte",
  "🐶",
  "\u202eevil",
  "zero\u200bwidth",
  "e\u0301\u0301\u0301",
  "\ufeff",
  "'; DROP TABLE tags; --",
  "%00",
  "../../etc/passwd",
  "null",
  "true",
  "{}",
  "__proto__",
  "x".repeat(10_000),
  "\ud83d".repeat(5_000),
];

/** Any JSON value a field should not take: wrong types, numbers out of every range, nesting. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 3, arbitrary: fc.constantFrom(1e300, -1e300, -1, 0, -0, 1.5, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63)) },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [[]], { "": null }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1000, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 200 }).map((depth) => nested(depth)) },
);

/** Extra keys a body should ignore or refuse, never trip over. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "", "\ud800", "nul\u0000", "id", "family_id", "user_id", "role", "x".repeat(1000)),
  fc.string({ maxLength: 12 }),
);

function nested(depth: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Short text that is valid for most fields but breaks storage or events: appended to a string, it keeps lengths and formats. */
const BROKEN_TEXT = ["\ud800", "\udfff", "\udc00\ud800", "\u0000", "\ud83d", "\ufeff", "\u202e", "e\u0301"];

/**
 * One change to a generated value: which place (an index into its places, wrapped) and what.
 * `text` changes a string already there (an index into its strings), so the rest stays valid.
 */
export type Mutation =
  | { at: number; kind: "replace"; value: unknown }
  | { at: number; kind: "add"; key: string; value: unknown }
  | { at: number; kind: "remove" }
  | { at: number; kind: "text"; text: string; where: "append" | "prepend" | "replace" };

export const textMutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constant("text" as const),
  text: fc.constantFrom(...BROKEN_TEXT),
  where: fc.constantFrom("append" as const, "prepend" as const, "replace" as const),
});

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ at: fc.nat(), kind: fc.constant("replace" as const), value: nastyValue }) },
  { weight: 4, arbitrary: textMutation },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(), kind: fc.constant("add" as const), key: nastyKey, value: nastyValue }) },
  { weight: 1, arbitrary: fc.record({ at: fc.nat(), kind: fc.constant("remove" as const) }) },
);

type Place = { parent: Record<string, unknown> | unknown[]; key: string | number } | null;

/** Every place in a value (its root is `null`), in a stable order. */
function placesOf(value: unknown, parent: Place = null, out: Place[] = []): Place[] {
  out.push(parent);
  if (Array.isArray(value)) value.forEach((item, i) => placesOf(item, { parent: value, key: i }, out));
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) placesOf(record[key], { parent: record, key }, out);
  }
  return out;
}

function valueAt(root: unknown, place: Place): unknown {
  return place ? (place.parent as Record<string | number, unknown>)[place.key] : root;
}

/** Applies the mutations to a copy of `value`; returns the mutated copy. */
export function applyMutations(value: unknown, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(value);
  for (const change of mutations) {
    const places = placesOf(root);
    if (change.kind === "text") {
      const strings = places.filter((candidate) => typeof valueAt(root, candidate) === "string");
      if (strings.length === 0) continue;
      const place = strings[change.at % strings.length] ?? null;
      const text = valueAt(root, place) as string;
      const changed = change.where === "append" ? text + change.text : change.where === "prepend" ? change.text + text : change.text;
      if (place) (place.parent as Record<string | number, unknown>)[place.key] = changed;
      else root = changed;
      continue;
    }
    const place = places[change.at % places.length] ?? null;
    // A copy: fast-check hands out the same constant objects ([], {}, [[]]) to every run, so
    // inserting one by reference would let a later mutation change it in place, even into a cycle.
    const value = change.kind === "remove" ? undefined : structuredClone(change.value);
    if (change.kind === "replace") {
      if (place) (place.parent as Record<string | number, unknown>)[place.key] = value;
      else root = value;
    } else if (change.kind === "remove") {
      if (place && Array.isArray(place.parent)) place.parent.splice(place.key as number, 1);
      else if (place) delete (place.parent as Record<string, unknown>)[place.key as string];
    } else {
      const target = valueAt(root, place);
      if (target !== null && typeof target === "object" && !Array.isArray(target)) {
        // defineProperty: a "__proto__" key must become an own property, as JSON.parse makes it.
        Object.defineProperty(target, change.key, { value, enumerable: true, writable: true, configurable: true });
      } else if (Array.isArray(target)) target.push(value);
    }
  }
  return root;
}
