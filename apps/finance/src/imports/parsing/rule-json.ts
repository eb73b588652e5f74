export type RuleJsonResult = { ok: true; items: Record<string, unknown>[] } | { ok: false; message: string };

/** A rule nests at most an array, a compound condition and its sub-conditions: deeper is no rule. */
const MAX_DEPTH = 8;
/** Sure's unescaping loop ends when nothing changes; a handful of passes undoes any real double escaping. */
const MAX_UNESCAPE_PASSES = 10;

class TooDeepError extends Error {}

/** "\u003e" written out as text becomes ">" (a lone surrogate stays escaped: it is no text). */
function decodeUnicodeEscapes(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (match, hex: string) => {
    const code = parseInt(hex, 16);
    return code >= 0xd800 && code <= 0xdfff ? match : String.fromCharCode(code);
  });
}

/** Sure's normalize_json_values: escapes left inside string values by double encoding are undone. */
function normalizeStrings(value: unknown, legacy: boolean, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TooDeepError();
  if (Array.isArray(value)) return value.map((item) => normalizeStrings(item, legacy, depth + 1));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalizeStrings(item, legacy, depth + 1)]));
  }
  if (typeof value !== "string") return value;
  const text = decodeUnicodeEscapes(value).replaceAll('\\"', '"');
  return legacy ? text.replaceAll("\\n", "\n").replaceAll("\\r", "\r").replaceAll("\\t", "\t") : text;
}

/** JSON, or JSON written inside a JSON string ("\"[...]\""), which Sure unwraps once. */
function parsePayload(text: string, legacy: boolean): unknown {
  let parsed: unknown = JSON.parse(text);
  if (typeof parsed === "string" && /^\s*[[{]/.test(parsed)) parsed = JSON.parse(parsed);
  return normalizeStrings(parsed, legacy, 0);
}

/** Sure's legacy cleanup for payloads a spreadsheet escaped once too often: outer quotes and backslashes before quotes go. */
function legacyCleanup(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === '"' || text[start] === "'")) start++;
  while (end > start && (text[end - 1] === '"' || text[end - 1] === "'")) end--;
  let cleaned = text.slice(start, end);
  for (let pass = 0; pass < MAX_UNESCAPE_PASSES; pass++) {
    const previous = cleaned;
    cleaned = unescapeOnce(cleaned);
    if (cleaned === previous) break;
  }
  return decodeUnicodeEscapes(cleaned);
}

/**
 * One pass of Sure's unescaping, run by run in linear time (a regex like /\\+"/ rescans a long
 * run of backslashes from each of its characters): backslashes before a quote go, and every
 * other run of backslashes is halved.
 */
function unescapeOnce(text: string): string {
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const run = text.indexOf("\\", at);
    if (run === -1) {
      parts.push(text.slice(at));
      break;
    }
    parts.push(text.slice(at, run));
    let end = run;
    while (text[end] === "\\") end++;
    const next = text[end];
    if (next === '"' || next === "'") {
      parts.push(next);
      at = end + 1;
    } else {
      parts.push("\\".repeat(Math.ceil((end - run) / 2)));
      at = end;
    }
  }
  return parts.join("");
}

const isRecord = (item: unknown): item is Record<string, unknown> => item !== null && typeof item === "object" && !Array.isArray(item);

/**
 * A rule row's conditions or actions cell as Sure's RuleImport reads it (parse_json_safely):
 * JSON as written, else after its legacy cleanup; blank is an empty list. It must be an array
 * of objects. Whether each names a known condition or action is for the rule's own validation.
 */
export function parseRuleJson(text: string, field: "conditions" | "actions"): RuleJsonResult {
  const label = field === "conditions" ? "Conditions" : "Actions";
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, items: [] };
  let parsed: unknown;
  try {
    try {
      parsed = parsePayload(trimmed, false);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      parsed = parsePayload(legacyCleanup(trimmed), true);
    }
  } catch (err) {
    if (err instanceof SyntaxError) return { ok: false, message: `Invalid JSON in ${field}: ${err.message}` };
    if (err instanceof TooDeepError) return { ok: false, message: `${label} nest too deeply (at most ${MAX_DEPTH} levels)` };
    throw err;
  }
  if (!Array.isArray(parsed) || !parsed.every(isRecord)) return { ok: false, message: `${label} must be a JSON array of objects` };
  return { ok: true, items: parsed };
}
