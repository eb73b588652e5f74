import busboy from "busboy";
import { AppError, type FileUpload } from "@hearth/contracts";
import type { Request } from "express";

const unreadable = () => new AppError("bad_request", { message: "The multipart body could not be read" });

/** Text fields a form may carry besides the file (Sure's import parameters are about twenty). */
const MAX_FIELDS = 60;
const MAX_FIELD_BYTES = 64 * 1024;

function megabytes(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))}MB`;
}

/**
 * A multipart body for a route that takes a whole file (Sure's imports): the file in `field`
 * becomes `contentField` (UTF-8 text, with `filename` and `content_type` beside it), the other
 * form fields the rest of the body. Read as a stream and cut off past `maxBytes`: a larger
 * file is 422 `file_too_large` as soon as it is seen, a file of another type `invalid_file_type`.
 */
export function readFileUpload(req: Request, upload: FileUpload): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: upload.maxBytes + 1, files: 5, fields: MAX_FIELDS, parts: MAX_FIELDS + 5, fieldSize: MAX_FIELD_BYTES, headerPairs: 20 },
      });
    } catch {
      reject(unreadable());
      return;
    }
    const body: Record<string, unknown> = {};
    let file: { chunks: Buffer[]; filename: string; mimeType: string } | null = null;
    let settled = false;
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(err);
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) fail(new AppError("validation_failed", { message: `${name} is too long` }));
      // The first of a repeated field wins; a field named like Object's own members is no parameter of ours.
      else if (name !== upload.contentField && name !== "__proto__" && !Object.hasOwn(body, name)) body[name] = value;
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
      if (file) {
        try {
          body[upload.contentField] = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(file.chunks));
        } catch {
          reject(new AppError("invalid_file_type", { message: "The file is not UTF-8 text" }));
          return;
        }
        body["filename"] = file.filename.slice(0, 255);
        body["content_type"] = file.mimeType.slice(0, 255);
      }
      resolve(body);
    });
    parser.on("error", () => fail(unreadable()));
    req.on("close", () => {
      if (!req.complete) fail(unreadable());
    });
    req.pipe(parser);
  });
}
