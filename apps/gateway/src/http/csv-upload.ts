import busboy, { type Busboy } from "busboy";
import { AppError, type CsvUpload } from "@hearth/contracts";
import type { Request } from "express";
import { CsvSyntaxError, parseCsv } from "./csv-text";
import { hasEmptyBody } from "./json-only";
import { uploadText } from "./upload-text";

/** The media types Sure takes as CSV (Import::ALLOWED_CSV_MIME_TYPES); a part without one is text/plain. */
const CSV_MEDIA_TYPES = new Set(["text/csv", "text/plain", "application/vnd.ms-excel", "application/csv"]);

interface ReceivedFile {
  bytes: Buffer;
  mimeType: string;
  /** More than the route's maxBytes was sent (only the first maxBytes + 1 are kept). */
  tooLarge: boolean;
}

const unreadable = () => new AppError("bad_request", { message: "The multipart body could not be read" });

/**
 * Streams a multipart body and keeps the first file sent in `field`, at most maxBytes + 1 of it
 * (other parts are read and dropped). Answers as soon as the file is too large; null if no file.
 */
function receiveFile(req: Request, field: string, maxBytes: number): Promise<ReceivedFile | null> {
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: maxBytes + 1, files: 10, fields: 50, parts: 60, fieldSize: 64 * 1024, headerPairs: 20 } });
    } catch {
      reject(unreadable());
      return;
    }
    let kept: { chunks: Buffer[]; mimeType: string } | null = null;
    parser.on("file", (name, stream, info) => {
      // A form cut short destroys its open file stream with an error: an unheard one would crash the process.
      stream.on("error", () => reject(unreadable()));
      if (name !== field || kept) {
        stream.resume();
        return;
      }
      const file = { chunks: [] as Buffer[], mimeType: info.mimeType.toLowerCase() };
      kept = file;
      stream.on("data", (chunk: Buffer) => file.chunks.push(chunk));
      stream.on("limit", () => {
        // The rest of the body is drained by Node once the answer is sent.
        req.unpipe(parser);
        resolve({ bytes: Buffer.alloc(0), mimeType: file.mimeType, tooLarge: true });
      });
    });
    parser.on("close", () => resolve(kept && { bytes: Buffer.concat(kept.chunks), mimeType: kept.mimeType, tooLarge: false }));
    parser.on("error", () => reject(unreadable()));
    req.on("close", () => {
      if (!req.complete) reject(unreadable());
    });
    req.pipe(parser);
  });
}

/** Sure's header match: case, spaces, dashes, underscores and asterisks ("Name*") do not matter. */
function normalisedHeader(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replaceAll("*", "")
    .replace(/[\s_-]+/g, "_");
}

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)}MB` : `${Math.floor(bytes / 1024)}KB`;
}

/**
 * A CSV upload as its route's procedure takes it: `{ rows }`, one object per data row keyed by
 * the route's columns. Each failure is Sure's error for it, checked in Sure's order.
 */
export async function readCsvUpload(req: Request, upload: CsvUpload): Promise<{ rows: Record<string, string>[] }> {
  const file = hasEmptyBody(req) ? null : await receiveFile(req, upload.field, upload.maxBytes);
  if (!file) throw new AppError("missing_file");
  if (file.tooLarge) throw new AppError("file_too_large", { message: `File is too large. Maximum size is ${kilobytes(upload.maxBytes)}.` });
  if (!CSV_MEDIA_TYPES.has(file.mimeType)) throw new AppError("invalid_file_type");

  let text: string;
  try {
    // In whatever encoding the bank or spreadsheet wrote it (upload-text.ts).
    text = (await uploadText(file.bytes)).text;
  } catch (err) {
    if (err instanceof AppError) throw new AppError("invalid_csv", { message: `CSV could not be parsed: ${err.message}` });
    throw err;
  }
  let table;
  try {
    table = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new AppError("invalid_csv", { message: `CSV could not be parsed: ${err.message}` });
    throw err;
  }
  if (table.rows.length > upload.maxRows) throw new AppError("file_too_large", { message: `File has too many rows. Maximum is ${upload.maxRows} rows.` });

  const indexOf = new Map<string, number>();
  table.headers.forEach((header, index) => {
    if (!indexOf.has(normalisedHeader(header))) indexOf.set(normalisedHeader(header), index);
  });
  const columns = Object.entries(upload.columns).flatMap(([key, names]) => {
    const index = names.map((name) => indexOf.get(normalisedHeader(name))).find((found) => found !== undefined);
    return index === undefined ? [] : [[key, index] as const];
  });
  const missing = upload.required.find((key) => !columns.some(([found]) => found === key));
  if (missing) throw new AppError("missing_column", { message: `CSV must include a '${upload.columns[missing]?.[0] ?? missing}' column.` });
  return { rows: table.rows.map((cells) => Object.fromEntries(columns.map(([key, index]) => [key, cells[index] ?? ""]))) };
}
