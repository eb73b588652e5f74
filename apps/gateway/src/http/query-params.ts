import { z } from "zod";
import type { RouteDef } from "@hearth/contracts";

/** Parameters that change no answer, which Sure clients send to lists with or without pages. */
const HARMLESS = new Set(["page", "per_page"]);

export interface FoldedQuery {
  /** Parameters by name: `tag_ids[]=a&tag_ids[]=b` and `tag_ids=a&tag_ids=b` are both `tag_ids: ["a", "b"]`. */
  values: Record<string, unknown>;
  /** How the client spelled each name (e.g. `tag_ids[]`), for messages. */
  spelled: Map<string, string>;
}

/**
 * Rails' list parameters (`tag_ids[]=a`) as the plain name's list: the brackets are dropped and
 * the values of both spellings merged. A bracketed name is a list even with one value, so a
 * parameter that takes one value refuses it rather than reading part of it.
 */
export function foldQuery(query: Record<string, unknown>): FoldedQuery {
  const values = new Map<string, unknown>();
  const spelled = new Map<string, string>();
  for (const [key, value] of Object.entries(query)) {
    const bracketed = key.endsWith("[]");
    const name = bracketed ? key.slice(0, -2) : key;
    const items = Array.isArray(value) ? value : [value];
    const before = values.get(name);
    if (before === undefined) values.set(name, bracketed ? items : value);
    else values.set(name, [...(Array.isArray(before) ? before : [before]), ...items]);
    if (!spelled.has(name) || bracketed) spelled.set(name, key);
  }
  // fromEntries defines "__proto__" as a plain key, never as the prototype.
  return { values: Object.fromEntries(values), spelled };
}

const knownCache = new WeakMap<RouteDef, Set<string> | null>();

/** The names a route's query schema declares; null when its shape cannot tell (then nothing is refused). */
function knownNames(route: RouteDef): Set<string> | null {
  if (knownCache.has(route)) return knownCache.get(route) ?? null;
  let names: Set<string> | null = new Set();
  if (route.query) {
    const json = z.toJSONSchema(route.query, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> };
    names = json.properties ? new Set(Object.keys(json.properties)) : null;
  }
  knownCache.set(route, names);
  return names;
}

/**
 * The parameters a route does not know, where ignoring them could widen its answer: on every
 * GET that needs a credential (a misspelt or unsupported filter must not list everything). Public
 * GETs (an OpenID provider's callback adds its own parameters) and writes ignore extras.
 */
export function unknownParameters(route: RouteDef, query: FoldedQuery): string[] {
  if (route.method !== "GET" || route.access.auth === "public") return [];
  const known = knownNames(route);
  if (!known) return [];
  return Object.keys(query.values)
    .filter((name) => !known.has(name) && !HARMLESS.has(name))
    .map((name) => query.spelled.get(name) ?? name);
}
