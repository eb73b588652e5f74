import { lineUnits, type Turns } from "./turns";

/** One line of the content: its number as an editor shows it (1 for the first) and its text without the line break. */
export interface NdjsonLine {
  number: number;
  text: string;
}

/** Ruby's String#strip removes these: a line of nothing else is blank. */
const isRubySpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x00;

/** Whether text[start, end) holds only what Ruby's strip removes (as isBlankLine, without a slice). */
function blankBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isRubySpace(text.charCodeAt(i))) return false;
  return true;
}

/** Sure skips a line whose strip is empty (spaces, tabs, a lone "\r"). */
export const isBlankLine = (text: string): boolean => blankBetween(text, 0, text.length);

/** A UTF-8 byte order mark at the start is no part of the first record (Ruby's JSON.parse would refuse it). */
export const withoutBom = (text: string): string => (text.startsWith("\uFEFF") ? text.slice(1) : text);

/** Blank lines passed over between two nulls of recordLines. */
const BLANK_RUN = 4096;

/**
 * The content's nonblank lines as Ruby's each_line splits them (at each "\n", a trailing "\r"
 * dropped), numbered among all lines. One indexOf per line, so a single 10 MB line costs one
 * scan; a blank line makes no string. A long run of blank lines yields null every BLANK_RUN of
 * them: a point where a cooperative reader may give the event loop a turn (see readLines).
 */
export function* recordLines(text: string): Generator<NdjsonLine | null> {
  let start = 0;
  let number = 0;
  let blanks = 0;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    number++;
    if (!blankBetween(text, start, stop)) {
      blanks = 0;
      yield { number, text: text.charCodeAt(stop - 1) === 0x0d && stop > start ? text.slice(start, stop - 1) : text.slice(start, stop) };
    } else if (++blanks === BLANK_RUN) {
      blanks = 0;
      yield null;
    }
    if (end === -1) return;
    start = end + 1;
  }
}

/**
 * Every nonblank line to `visit`, in order, giving the event loop its turns; stops early when
 * `visit` answers false.
 */
export async function readLines(text: string, turns: Turns, visit: (line: NdjsonLine) => boolean | void): Promise<void> {
  for (const line of recordLines(text)) {
    if (turns.due(line === null ? BLANK_RUN >> 7 : lineUnits(line.text.length))) await turns.pause();
    if (line !== null && visit(line) === false) return;
  }
}

/** Nonblank lines, counted only until `stopAfter` is passed (the caller refuses the file then). */
export async function countRecordLines(text: string, turns: Turns, stopAfter = Number.MAX_SAFE_INTEGER): Promise<number> {
  let count = 0;
  await readLines(text, turns, () => ++count <= stopAfter);
  return count;
}

/** The first nonblank line, or null when every line is blank. */
export function firstRecordLine(text: string): NdjsonLine | null {
  for (const line of recordLines(text)) if (line !== null) return line;
  return null;
}
