export type JsonLineProblem = "line_too_large" | "too_deeply_nested" | "invalid_json";

export type JsonLineResult = { ok: true; value: unknown } | { ok: false; code: JsonLineProblem; message: string };

export interface JsonLineLimits {
  maxLineBytes: number;
  maxDepth: number;
}

/** How long a parser's message may grow in an error (V8 quotes part of the line). */
const MAX_PARSER_MESSAGE = 200;

/**
 * Whether arrays and objects nest deeper than `max`, in one pass over the characters: brackets
 * inside strings do not count, and a backslash skips the character it escapes.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * Every JSON number as the text it was written with ("12.30", "1e400"): amounts stay decimal
 * text from the file to the minor units, so no float ever holds one. Needs JSON.parse's source
 * text access (Node 21 and later).
 */
function numbersAsWritten(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === "number" ? (context?.source ?? String(value)) : value;
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

/**
 * One line as JSON, guarded: a line longer than the cap or nested deeper than the cap is refused
 * before JSON.parse touches it. Numbers come back as their text (see numbersAsWritten).
 */
export function parseJsonLine(text: string, limits: JsonLineLimits): JsonLineResult {
  // UTF-16 units never outnumber UTF-8 bytes, so a long string is refused before it is measured.
  if (text.length > limits.maxLineBytes || Buffer.byteLength(text, "utf8") > limits.maxLineBytes) {
    return { ok: false, code: "line_too_large", message: `is longer than ${sizeText(limits.maxLineBytes)}, the most one record may take.` };
  }
  if (nestsDeeperThan(text, limits.maxDepth)) {
    return { ok: false, code: "too_deeply_nested", message: `nests arrays and objects deeper than ${limits.maxDepth} levels.` };
  }
  try {
    return { ok: true, value: JSON.parse(text, numbersAsWritten as (key: string, value: unknown) => unknown) };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const reason = err.message.length > MAX_PARSER_MESSAGE ? `${err.message.slice(0, MAX_PARSER_MESSAGE)}…` : err.message;
    return { ok: false, code: "invalid_json", message: `is not valid JSON: ${reason}` };
  }
}
