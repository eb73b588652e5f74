import busboy from "busboy";
import { AppError, TEXT_ENCODINGS, textEncodingOf, type FileUpload, type TextEncoding } from "@hearth/contracts";
import type { Request } from "express";
import { assertAlreadyText, uploadText } from "./upload-text";

const unreadable = () => new AppError("bad_request", { message: "The multipart body could not be read" });

/** Text fields a form may carry besides the file (Sure's import parameters are about twenty). */
const MAX_FIELDS = 60;
const MAX_FIELD_BYTES = 64 * 1024;
/** Part headers and boundaries of a whole form, beyond its fields' and file's bytes. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

function megabytes(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))}MB`;
}

/** The encoding a form's `encoding` field names; 422 when it names none of ours. */
function requestedEncoding(label: unknown): TextEncoding | undefined {
  if (label === undefined || label === "") return undefined;
  const encoding = typeof label === "string" ? textEncodingOf(label) : undefined;
  if (!encoding) throw new AppError("validation_failed", { message: `encoding must name one of: ${TEXT_ENCODINGS.join(", ")}` });
  return encoding;
}

/** The file's text: in the encoding asked for or found when the route takes several (upload-text.ts), else UTF-8 only. */
async function fileText(bytes: Buffer, upload: FileUpload, body: Record<string, unknown>): Promise<string> {
  if (!upload.encodings) {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new AppError("invalid_file_type", { message: "The file is not UTF-8 text" });
    }
  }
  const { text, encoding } = await uploadText(bytes, requestedEncoding(body["encoding"]));
  body["encoding"] = encoding;
  return text;
}

/** The body a whole form makes: the file's text (or the content field's) beside the other fields. */
async function formBody(
  file: { chunks: Buffer[]; filename: string; mimeType: string } | null,
  contentText: string | undefined,
  upload: FileUpload,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (file && contentText !== undefined) {
    throw new AppError("validation_failed", { message: `Send the file or ${upload.contentField}, not both` });
  }
  if (file) {
    body[upload.contentField] = await fileText(Buffer.concat(file.chunks), upload, body);
    body["filename"] = file.filename.slice(0, 255);
    body["content_type"] = file.mimeType.slice(0, 255);
  } else if (contentText !== undefined) {
    if (upload.encodings) assertAlreadyText(body);
    body[upload.contentField] = contentText;
  }
  return body;
}

/**
 * A multipart body for a route that takes a whole file (Sure's imports): the file in `field`
 * becomes `contentField` (its text, with `filename`, `content_type` and, on a route taking
 * several encodings, `encoding` beside it), the other form fields the rest of the body. Without a
 * file, a text field named `contentField` is the content, as Rails reads `params[:raw_file_content]`
 * from a form. Read as a stream and cut off past `maxBytes`: a larger file or content field is
 * 422 `file_too_large` as soon as it is seen, a file of another type `invalid_file_type`.
 */
export function readFileUpload(req: Request, upload: FileUpload): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // A field may be as large as the file (the content as text); others are held to MAX_FIELD_BYTES below.
        limits: { fileSize: upload.maxBytes + 1, files: 5, fields: MAX_FIELDS, parts: MAX_FIELDS + 5, fieldSize: upload.maxBytes + 1, headerPairs: 20 },
      });
    } catch {
      reject(unreadable());
      return;
    }
    const body: Record<string, unknown> = {};
    let file: { chunks: Buffer[]; filename: string; mimeType: string } | null = null;
    let contentText: string | undefined;
    /** What the fields hold together: past the content and every other field at its largest, the form is too large. */
    let fieldChars = 0;
    let settled = false;
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(err);
    };
    parser.on("field", (name, value, info) => {
      fieldChars += value.length;
      const tooLarge = () => new AppError("file_too_large", { message: `File is too large. Maximum size is ${megabytes(upload.maxBytes)}.` });
      if (fieldChars > upload.maxBytes + MAX_FIELDS * MAX_FIELD_BYTES) fail(tooLarge());
      else if (name === upload.contentField) {
        if (info.valueTruncated || Buffer.byteLength(value) > upload.maxBytes) fail(tooLarge());
        else contentText ??= value;
      } else if (value.length > MAX_FIELD_BYTES) fail(new AppError("validation_failed", { message: `${name} is too long` }));
      // The first of a repeated field wins; a field named like Object's own members is no parameter of ours.
      else if (name !== "__proto__" && !Object.hasOwn(body, name)) body[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      stream.on("error", () => fail(unreadable()));
      if (name !== upload.field || file) {
        stream.resume();
        return;
      }
      const filename = info.filename ?? "";
      const mimeType = info.mimeType.toLowerCase();
      const extensionTaken = upload.extensions.some((extension) => filename.toLowerCase().endsWith(extension));
      if (!upload.mediaTypes.includes(mimeType) && !extensionTaken) {
        stream.resume();
        fail(new AppError("invalid_file_type"));
        return;
      }
      const kept = { chunks: [] as Buffer[], filename, mimeType };
      file = kept;
      stream.on("data", (chunk: Buffer) => kept.chunks.push(chunk));
      stream.on("limit", () => fail(new AppError("file_too_large", { message: `File is too large. Maximum size is ${megabytes(upload.maxBytes)}.` })));
    });
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      void formBody(file, contentText, upload, body).then(resolve, reject);
    });
    parser.on("error", () => fail(unreadable()));
    req.on("close", () => {
      if (!req.complete) fail(unreadable());
    });
    // The whole form is held to the file and every other field at their largest (and their part
    // headers): busboy buffers each field whole before it is seen, so fields are counted as they arrive.
    let received = 0;
    const formLimit = upload.maxBytes + MAX_FIELDS * MAX_FIELD_BYTES + FORM_OVERHEAD_BYTES;
    req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > formLimit) fail(new AppError("file_too_large", { message: `File is too large. Maximum size is ${megabytes(upload.maxBytes)}.` }));
    });
    req.pipe(parser);
  });
}
