/** One line of the content: its number as an editor shows it (1 for the first) and its text without the line break. */
export interface NdjsonLine {
  number: number;
  text: string;
}

/** Ruby's String#strip removes these: a line of nothing else is blank. */
const isRubySpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x00;

/** Sure skips a line whose strip is empty (spaces, tabs, a lone "\r"). */
export function isBlankLine(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isRubySpace(text.charCodeAt(i))) return false;
  return true;
}

/** A UTF-8 byte order mark at the start is no part of the first record (Ruby's JSON.parse would refuse it). */
export const withoutBom = (text: string): string => (text.startsWith("\uFEFF") ? text.slice(1) : text);

/**
 * The content's lines as Ruby's each_line splits them: at each "\n", a trailing "\r" dropped.
 * One indexOf per line, so a single 10 MB line costs one scan.
 */
export function* ndjsonLines(text: string): Generator<NdjsonLine> {
  let start = 0;
  let number = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    number++;
    yield { number, text: text.charCodeAt(stop - 1) === 0x0d && stop > start ? text.slice(start, stop - 1) : text.slice(start, stop) };
    if (end === -1) return;
    start = end + 1;
  }
}

/** Nonblank lines, counted only until `stopAfter` is passed (the caller refuses the file then). */
export function countRecordLines(text: string, stopAfter = Number.MAX_SAFE_INTEGER): number {
  let count = 0;
  for (const line of ndjsonLines(text)) {
    if (isBlankLine(line.text)) continue;
    if (++count > stopAfter) return count;
  }
  return count;
}

/** The first nonblank line, or null when every line is blank. */
export function firstRecordLine(text: string): NdjsonLine | null {
  for (const line of ndjsonLines(text)) if (!isBlankLine(line.text)) return line;
  return null;
}
