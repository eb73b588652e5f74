import { Turns } from "../ndjson/turns";
import { StatementFileError, lineAt } from "../statement-files/statement-file-error";

/** The caps one OFX file's markup is read under: a hostile file fails with a clear error, in time linear in its size. */
export const OFX_MARKUP_LIMITS = {
  /** Tags of one file (a 10 MB statement of 10,000 transactions has about 150,000). */
  maxTags: 1_000_000,
  /** Different element names (OFX defines a few hundred). */
  maxNames: 1_000,
  maxNameLength: 64,
  /** From "<" to ">": a name and, in OFX 2's XML, maybe attributes. */
  maxTagLength: 256,
} as const;

export const OPEN = 0;
export const CLOSE = 1;
/** An XML element written "<NAME/>". */
export const EMPTY = 2;

/**
 * An OFX file's tags in order, in flat typed arrays (a tag costs 13 bytes however many there
 * are). `closed` says, for each opening tag, whether its closing tag follows further on: OFX 1's
 * SGML closes aggregates but not the elements holding a value ("<TRNAMT>-12.50"), OFX 2's XML
 * closes every element, and some files mix the two.
 */
export interface OfxMarkup {
  text: string;
  count: number;
  kinds: Uint8Array;
  /** Where each tag's "<" is, and where the text after its ">" starts. */
  starts: Int32Array;
  ends: Int32Array;
  nameIds: Int32Array;
  /** Element names by id, upper-cased (OFX's are upper case; XML readers of it differ in case). */
  names: string[];
  closed: Uint8Array;
}

const isNameChar = (code: number) =>
  (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 46 || code === 95 || code === 45;

function unreadable(text: string, offset: number, what: string): StatementFileError {
  return new StatementFileError("invalid_file_type", `The OFX file could not be read: ${what} at line ${lineAt(text, offset)}`);
}

/**
 * The tags of `text` from offset `start` (its <OFX> element), read by hand in one pass: no
 * regular expression, each character looked at a bounded number of times. Processing
 * instructions (<?xml ...?>, <?OFX ...?>), comments and declarations are skipped. A "<" that
 * starts no tag, a tag without its ">", or caps passed make the file unreadable.
 */
export async function readOfxMarkup(text: string, start: number, limits = OFX_MARKUP_LIMITS, signal?: AbortSignal): Promise<OfxMarkup> {
  let capacity = 0;
  for (let at = text.indexOf("<", start); at !== -1 && capacity <= limits.maxTags; at = text.indexOf("<", at + 1)) capacity++;
  if (capacity > limits.maxTags)
    throw new StatementFileError("invalid_file_type", `The OFX file has more than ${limits.maxTags} tags, the most one import reads`);

  const kinds = new Uint8Array(capacity);
  const starts = new Int32Array(capacity);
  const ends = new Int32Array(capacity);
  const nameIds = new Int32Array(capacity);
  const names: string[] = [];
  const idOf = new Map<string, number>();
  let count = 0;

  const turns = new Turns();
  let at = text.indexOf("<", start);
  while (at !== -1) {
    // A tag's work is a unit: the event loop is given back about every 5 ms (and a read whose caller has gone stops).
    if (turns.due()) {
      await turns.pause();
      signal?.throwIfAborted();
    }
    if (text.startsWith("<?", at) || text.startsWith("<!", at)) {
      // A CDATA section (a value's text, read by ofxElementText) may hold ">": it ends at "]]>".
      const terminator = text.startsWith("<?", at) ? "?>" : text.startsWith("<!--", at) ? "-->" : text.startsWith("<![CDATA[", at) ? "]]>" : ">";
      const end = text.indexOf(terminator, at + 2);
      if (end === -1) throw unreadable(text, at, `an unterminated "${text.slice(at, at + 4)}"`);
      at = text.indexOf("<", end + terminator.length);
      continue;
    }
    let cursor = at + 1;
    const closing = text.charCodeAt(cursor) === 47; // "/"
    if (closing) cursor++;
    const nameStart = cursor;
    while (cursor < text.length && isNameChar(text.charCodeAt(cursor))) {
      cursor++;
      if (cursor - nameStart > limits.maxNameLength) throw unreadable(text, at, `a tag name longer than ${limits.maxNameLength} characters`);
    }
    if (cursor === nameStart) throw unreadable(text, at, 'a "<" that starts no tag (write it as &lt;)');
    const close = text.indexOf(">", cursor);
    const next = text.indexOf("<", cursor);
    if (close === -1 || (next !== -1 && next < close) || close - at > limits.maxTagLength) throw unreadable(text, at, "a tag without its closing >");

    const name = text.slice(nameStart, cursor).toUpperCase();
    let id = idOf.get(name);
    if (id === undefined) {
      id = names.length;
      if (id >= limits.maxNames) throw unreadable(text, at, `more than ${limits.maxNames} different element names`);
      names.push(name);
      idOf.set(name, id);
    }
    kinds[count] = closing ? CLOSE : text.charCodeAt(close - 1) === 47 ? EMPTY : OPEN;
    starts[count] = at;
    ends[count] = close + 1;
    nameIds[count] = id;
    count++;
    at = next;
  }
  return { text, count, kinds, starts, ends, nameIds, names, closed: closedOpenings(count, kinds, nameIds, names.length) };
}

/**
 * Which opening tags are closed further on: walking back from the end, a closing tag waits for
 * the nearest opening tag of its name before it. An opening tag no closing tag waits for is an
 * SGML element whose value is the text after it.
 */
function closedOpenings(count: number, kinds: Uint8Array, nameIds: Int32Array, nameCount: number): Uint8Array {
  const closed = new Uint8Array(count);
  const waiting = new Int32Array(nameCount);
  for (let tag = count - 1; tag >= 0; tag--) {
    const id = nameIds[tag]!;
    if (kinds[tag] === CLOSE) {
      waiting[id] = waiting[id]! + 1;
    } else if (kinds[tag] === OPEN && waiting[id]! > 0) {
      waiting[id] = waiting[id]! - 1;
      closed[tag] = 1;
    }
  }
  return closed;
}
