import { AppError, type ErrorCode } from "@hearth/contracts";

/** The codes Sure's imports controller answers a file it cannot take with (each a 422). */
export type ImportParseErrorCode = Extract<ErrorCode, "file_too_large" | "content_too_large" | "max_row_count_exceeded" | "invalid_csv">;

/**
 * A file refused as a whole: too large, too many rows, or no CSV at all. `errors` carries the
 * parser's own words where it has them (Sure answers invalid_csv with `errors: [e.message]`).
 */
export class ImportParseError extends Error {
  override name = "ImportParseError";

  constructor(
    readonly code: ImportParseErrorCode,
    message: string,
    readonly errors: string[] = [],
  ) {
    super(message);
  }

  /** The API's answer: Sure's code and message, and the parser's details under `errors`. */
  toAppError(): AppError {
    return new AppError(this.code, { message: this.message, ...(this.errors.length > 0 ? { errors: this.errors } : {}), cause: this });
  }
}
