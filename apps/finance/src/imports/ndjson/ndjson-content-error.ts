import { AppError, type ErrorCode } from "@hearth/contracts";

/** The codes Sure's imports controller answers NDJSON content it will not take with (each a 422). */
export type NdjsonContentErrorCode = Extract<ErrorCode, "invalid_ndjson" | "missing_content">;

/**
 * NDJSON content refused as a whole: none at all (missing_content), or a first record that is not
 * a JSON object with type and data (invalid_ndjson). Sizes and row counts are refused with the
 * parsing library's ImportParseError, whose codes do not include these two.
 */
export class NdjsonContentError extends Error {
  override name = "NdjsonContentError";

  constructor(
    readonly code: NdjsonContentErrorCode,
    message: string,
    readonly errors: string[] = [],
  ) {
    super(message);
  }

  /** The API's answer: Sure's code and message, and what was wrong under `errors`. */
  toAppError(): AppError {
    return new AppError(this.code, { message: this.message, ...(this.errors.length > 0 ? { errors: this.errors } : {}), cause: this });
  }
}

/** Sure's messages for both codes (imports_controller.rb). */
export const MISSING_CONTENT_MESSAGE = "Provide a Sure NDJSON file or raw_file_content.";
export const INVALID_NDJSON_MESSAGE = "Invalid Sure NDJSON content.";
