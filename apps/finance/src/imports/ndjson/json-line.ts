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

/** A JSON number as JSON writes one, from where it starts (sticky). */
const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Characters that may not follow a number: it would be a longer (malformed) one. */
const isNumberPart = (code: number) => (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e || code === 0x45 || code === 0x65;
const isJsonSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** Whether the text at `from`, past JSON whitespace, is a colon: a number there stands as a key, which JSON refuses and a string is not. */
function colonAt(text: string, from: number): boolean {
  let i = from;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3a;
}

/**
 * The line with each number outside strings put in quotes (12.30 → "12.30"): JSON.parse then
 * gives what numbersAsWritten gives, each number as its text, without a reviver (which makes
 * JSON.parse ten times slower: a 1 MB line of split lines took 300 ms). A string stands wherever
 * a number may, and as a key besides: so null when a number is not as JSON writes it or stands as
 * a key, and JSON.parse with the reviver answers the line as before.
 */
export function withNumbersQuoted(text: string): string | null {
  let quoted = "";
  let copied = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      JSON_NUMBER.lastIndex = i;
      if (!JSON_NUMBER.test(text)) return null;
      const end = JSON_NUMBER.lastIndex;
      if ((end < text.length && isNumberPart(text.charCodeAt(end))) || colonAt(text, end)) return null;
      quoted += `${text.slice(copied, i)}"${text.slice(i, end)}"`;
      copied = end;
      i = end - 1;
    }
  }
  return copied === 0 ? text : quoted + text.slice(copied);
}

/** JSON.parse with numbers as their text: quoted first where they can be, else through the reviver. */
function parseNumbersAsWritten(text: string): unknown {
  const quoted = withNumbersQuoted(text);
  if (quoted !== null) {
    try {
      return JSON.parse(quoted);
    } catch (err) {
      // Not JSON: the reviver's parse of the line as written answers it (its message names the line's own positions).
      if (!(err instanceof SyntaxError)) throw err;
    }
  }
  return JSON.parse(text, numbersAsWritten as (key: string, value: unknown) => unknown);
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
    return { ok: true, value: parseNumbersAsWritten(text) };
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const reason = err.message.length > MAX_PARSER_MESSAGE ? `${err.message.slice(0, MAX_PARSER_MESSAGE)}…` : err.message;
    return { ok: false, code: "invalid_json", message: `is not valid JSON: ${reason}` };
  }
}
