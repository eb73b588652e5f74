import { createHash } from "node:crypto";
import { AppError, IMPORT_CSV_LIMITS } from "@hearth/contracts";
import { parseJsonLine } from "../ndjson/json-line";
import { isSureRecordType } from "../ndjson/record-types";
import { SURE_NDJSON_LIMITS } from "../ndjson/limits";
import { INVALID_NDJSON_MESSAGE, MISSING_CONTENT_MESSAGE } from "../ndjson/ndjson-content-error";
import { firstRecordLine, isBlankLine } from "../ndjson/ndjson-lines";
import { lineUnits, Turns } from "../ndjson/turns";

export interface CheckedChunk {
  content: string;
  checksum: string;
  rowsCount: number;
  /** Records per type (Sure's chunk summary, under "records"). */
  summary: { records: Record<string, number> };
}

const MEGABYTE = 1024 * 1024;

/** Whether text[start, end) holds only what Ruby's strip removes (as isBlankLine, without a slice). */
function blankBetween(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!(code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x00)) return false;
  }
  return true;
}

/**
 * A chunk as Sure's import_sessions#create_chunk takes it: content present, at most 10 MB, its first
 * record a JSON object with a type and data (later lines are checked when the session is
 * published: a chunk may name records of an earlier chunk). Counts its records by type, reading
 * only each line's "type" (lines over the reader's line limit count as unknown). Reads in turns:
 * a 10 MB chunk took ~200 ms of finance's one event loop in a single piece.
 */
export async function checkChunk(content: string | undefined, fromFile: boolean, turns = new Turns()): Promise<CheckedChunk> {
  if (content === undefined || isBlankLine(content)) throw new AppError("missing_content", { message: MISSING_CONTENT_MESSAGE });
  if (Buffer.byteLength(content, "utf8") > IMPORT_CSV_LIMITS.maxBytes) {
    const size = `Maximum size is ${IMPORT_CSV_LIMITS.maxBytes / MEGABYTE}MB.`;
    throw fromFile
      ? new AppError("file_too_large", { message: `File is too large. ${size}` })
      : new AppError("content_too_large", { message: `Content is too large. ${size}` });
  }
  const first = firstRecordLine(content);
  const parsed = first ? parseJsonLine(first.text, SURE_NDJSON_LIMITS) : null;
  const record = parsed?.ok ? (parsed.value as { type?: unknown; data?: unknown } | null) : null;
  if (!record || typeof record.type !== "string" || typeof record.data !== "object" || record.data === null || Array.isArray(record.data)) {
    throw new AppError("invalid_ndjson", { message: INVALID_NDJSON_MESSAGE });
  }
  // Sure's record types by name, every other one under "unsupported": a chunk cannot grow its summary
  // with made-up types, nor name one after Object's members ("constructor" was a 500).
  const records: Record<string, number> = Object.create(null) as Record<string, number>;
  let rowsCount = 0;
  // By index, slicing only lines with something on them: ten million empty lines must not cost ten million strings.
  for (let start = 0; start < content.length;) {
    const newline = content.indexOf("\n", start);
    const end = newline === -1 ? content.length : newline;
    if (!blankBetween(content, start, end)) {
      rowsCount += 1;
      const value = parseJsonLine(content.slice(start, end), SURE_NDJSON_LIMITS);
      const named = value.ok ? (value.value as { type?: unknown } | null)?.type : undefined;
      const type = typeof named === "string" && isSureRecordType(named) ? named : "unsupported";
      records[type] = (records[type] ?? 0) + 1;
    }
    if (turns.due(lineUnits(end - start))) await turns.pause();
    start = end + 1;
  }
  return { content, checksum: createHash("sha256").update(content).digest("hex"), rowsCount, summary: { records: { ...records } } };
}
