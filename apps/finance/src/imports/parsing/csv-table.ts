import { finished } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import { IMPORT_CSV_LIMITS, unstorableTextOf, type ImportColumnSeparator } from "@hearth/contracts";
import { Turns } from "../ndjson/turns";
import { ImportParseError } from "./import-parse-error";

/** The caps one CSV is read under: a hostile file fails with a clear error, never hangs. */
export interface CsvLimits {
  maxBytes: number;
  /** Data rows below the header. */
  maxRows: number;
  maxColumns: number;
  maxCellLength: number;
}

export interface CsvTableOptions {
  colSep: ImportColumnSeparator;
  /** Lines dropped before the header row (Sure's rows_to_skip: raw lines, before any CSV parsing). */
  rowsToSkip?: number;
  limits?: CsvLimits;
  /** How the content came: an uploaded file or raw_file_content (Sure names the size error after it). */
  source?: "file" | "content";
  /** false: count the rows without keeping them (preflight). */
  keepRows?: boolean;
  /** Stop reading once this many data rows were read (a preflight needs to know only that there are more than a cap). */
  stopAfterRows?: number;
  /** The caller has gone: the read stops (throws the signal's reason). */
  signal?: AbortSignal | undefined;
}

/** A CSV's header row and data rows, every cell trimmed, blank rows left out. Row n of the file's data is rows[n - 1]. */
export interface CsvTable {
  headers: string[];
  rows: string[][];
  /** Data rows read (equals rows.length unless keepRows was false). */
  rowCount: number;
}

/** Characters handed to the CSV parser between two looks at the clock: about a millisecond of parsing. */
const CHUNK_CHARS = 16 * 1024;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
/** Thrown from a record to end the read early (stopAfterRows); never leaves parseCsvTable. */
const ENOUGH_ROWS = new Error("enough rows read");

const MEGABYTE = 1024 * 1024;

/** Sure's size check (Import.max_csv_size): the content's UTF-8 bytes, refused past the cap. */
export function assertCsvSize(text: string, maxBytes: number, source: "file" | "content" = "content"): void {
  // UTF-16 units never outnumber UTF-8 bytes, so a long string is refused before it is measured.
  if (text.length > maxBytes || Buffer.byteLength(text, "utf8") > maxBytes) {
    const megabytes = Math.floor(maxBytes / MEGABYTE);
    const size = megabytes >= 1 ? `${megabytes}MB` : `${maxBytes} bytes`;
    throw source === "file"
      ? new ImportParseError("file_too_large", `File is too large. Maximum size is ${size}.`)
      : new ImportParseError("content_too_large", `Content is too large. Maximum size is ${size}.`);
  }
}

/** Lines as Ruby's String#lines counts them: each "\n" ends one, and text after the last is one more. */
export function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.length > 0 && !text.endsWith("\n") ? count + 1 : count;
}

/** The text after its first `count` lines. */
export function dropLines(text: string, count: number): string {
  let start = 0;
  for (let dropped = 0; dropped < count; dropped++) {
    const end = text.indexOf("\n", start);
    if (end === -1) return "";
    start = end + 1;
  }
  return text.slice(start);
}

/** Sure's rows_to_skip_within_file_bounds: skipping every line leaves no header to read. */
export function rowsToSkipIssue(text: string, rowsToSkip: number): string | null {
  if (text.trim() === "" || rowsToSkip === 0) return null;
  const lines = countLines(text);
  return rowsToSkip >= lines ? `Rows to skip must be less than the number of lines in the file (${lines})` : null;
}

function invalidCsv(message: string): ImportParseError {
  return new ImportParseError("invalid_csv", "CSV content could not be parsed", [message]);
}

/**
 * Reads CSV as Sure's imports do (Ruby's CSV with headers, liberal parsing and stripped cells):
 * the configured separator; CRLF, LF or CR between rows; a quoted cell may hold separators, line
 * breaks and doubled quotes; a quote inside an unquoted cell is just a character. A UTF-8 byte
 * order mark is dropped (Ruby would keep it in the first header). Rows of only blank cells are
 * left out, where Sure would make rows that fail as "Date is required".
 *
 * Read in turns: the text goes to the parser a chunk at a time and the event loop is given back
 * about every 5 ms (ndjson/turns.ts), so a 10 MB file (half a second of parsing) never holds
 * finance's one event loop, and a read whose caller has gone (`signal`) stops between chunks.
 */
export async function parseCsvTable(text: string, options: CsvTableOptions): Promise<CsvTable> {
  const limits = options.limits ?? IMPORT_CSV_LIMITS;
  const rowsToSkip = options.rowsToSkip ?? 0;
  const keepRows = options.keepRows ?? true;
  const stopAfterRows = options.stopAfterRows ?? Infinity;
  assertCsvSize(text, limits.maxBytes, options.source);
  const unstorable = unstorableTextOf(text);
  if (unstorable) throw invalidCsv(`The content ${unstorable.message}: is it a CSV text file?`);

  const content = dropLines(text.startsWith("\uFEFF") ? text.slice(1) : text, rowsToSkip);
  let headers: string[] | null = null;
  const rows: string[][] = [];
  let rowCount = 0;

  // Set when a record ended the read (an error or enough rows): the parser errors on the next tick, so the loop checks this.
  let recordEnded = false;
  const readRecord = (record: string[], context: { lines: number }): null => {
    const line = context.lines + rowsToSkip;
    if (record.length > limits.maxColumns) throw invalidCsv(`Line ${line} has ${record.length} columns; at most ${limits.maxColumns} are read`);
    const cells = record.map((cell) => cell.trim());
    const tooLong = cells.findIndex((cell) => cell.length > limits.maxCellLength);
    if (tooLong !== -1) throw invalidCsv(`Line ${line}, column ${tooLong + 1} is longer than ${limits.maxCellLength} characters`);
    if (cells.every((cell) => cell === "")) return null;
    if (headers === null) {
      headers = cells;
      return null;
    }
    rowCount++;
    if (rowCount > limits.maxRows) {
      throw new ImportParseError("max_row_count_exceeded", `The file has more than ${limits.maxRows} rows, the most one import can take.`);
    }
    if (keepRows) rows.push(cells);
    if (rowCount >= stopAfterRows) throw ENOUGH_ROWS;
    return null;
  };
  const onRecord = (record: string[], context: { lines: number }): null => {
    try {
      return readRecord(record, context);
    } catch (err) {
      recordEnded = true;
      throw err;
    }
  };

  const parser = parse({
    delimiter: options.colSep,
    record_delimiter: ["\r\n", "\n", "\r"],
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // A row holds at most maxColumns cells of maxCellLength: a bigger one fails while it is read.
    max_record_size: limits.maxColumns * limits.maxCellLength,
    on_record: onRecord,
  });
  // Records are taken by on_record (it keeps none in the stream): the stream only has to flow.
  parser.resume();
  const ended = finished(parser);
  // Settled while the loop below waits its turn: handled here, awaited (and its error read) below.
  ended.catch(() => undefined);
  try {
    const turns = new Turns();
    // Each chunk is parsed as it is written (the parser is a synchronous transform).
    for (let at = 0; at < content.length && !recordEnded && !parser.destroyed;) {
      let end = Math.min(at + CHUNK_CHARS, content.length);
      // Never between the two halves of a surrogate pair (each half alone would be written as U+FFFD).
      if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end--;
      parser.write(content.slice(at, end));
      at = end;
      if (turns.due(32)) {
        await turns.pause();
        options.signal?.throwIfAborted();
      }
    }
    parser.end();
    await ended;
  } catch (err) {
    parser.destroy();
    await ended.catch(() => undefined);
    if (err === ENOUGH_ROWS) return { headers: headers ?? [], rows, rowCount };
    if (err instanceof ImportParseError) throw err;
    if (err instanceof CsvError) {
      if (err.code === "CSV_MAX_RECORD_SIZE") throw invalidCsv(`A row is longer than ${limits.maxColumns * limits.maxCellLength} characters`);
      throw invalidCsv(err.message);
    }
    throw err;
  }
  return { headers: headers ?? [], rows, rowCount };
}
