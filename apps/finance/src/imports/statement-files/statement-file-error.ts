import { AppError } from "@hearth/contracts";

/** How a whole OFX or QIF file is refused (each a 422): not such a file, a file we will not read, or too many transactions. */
export type StatementFileErrorCode = "invalid_file_type" | "validation_failed" | "max_row_count_exceeded";

/** An OFX or QIF file refused as a whole, with the reason a person can act on. */
export class StatementFileError extends Error {
  override name = "StatementFileError";

  constructor(
    readonly code: StatementFileErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The API's answer: the code, the reason as message, and again under `errors` (as validation_failed carries it). */
  toAppError(): AppError {
    return new AppError(this.code, { message: this.message, errors: [this.message], cause: this });
  }
}

/** The line (1-based) of a character offset, for messages about where a file went wrong. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) line++;
  return line;
}
