import { ImportParseError } from "../parsing/import-parse-error";

/** The caps one Sure NDJSON file is read under: a hostile file fails with a clear error, never hangs. */
export interface SureNdjsonLimits {
  /** Sure's SureImport.max_ndjson_size (10 MB): the content's UTF-8 bytes. */
  maxBytes: number;
  /**
   * Sure's SureImport.max_row_count: the rows one import may publish, counted as nonblank lines
   * plus the split lines of Transaction records. Sure counts lines only (ndjson_line_type_counts,
   * its rows_count); Hearth counts each split line too, because each is a row written (an entry
   * of its own: sure-transactions.ts) and one record may carry many, so without them the cap would
   * not bound the work (a 10 MB file of split lines is a million rows). A file Sure would take
   * with fewer lines than the cap but more lines and split lines is refused here, with Sure's
   * max_row_count_exceeded (the preflight warns row_count_exceeded, as for too many lines).
   */
  maxRows: number;
  /** One line (one record) at most: JSON.parse never sees a longer one. */
  maxLineBytes?: number;
  /** Arrays and objects nested at most this deep in one line (a rule with sub-conditions needs 7). */
  maxDepth?: number;
}

const MEBIBYTE = 1024 * 1024;

export const SURE_NDJSON_LIMITS = {
  maxBytes: 10 * MEBIBYTE,
  maxRows: 100_000,
  maxLineBytes: MEBIBYTE,
  maxDepth: 32,
} as const satisfies Required<SureNdjsonLimits>;

/** The limits with every optional cap filled in. */
export function fullLimits(limits: SureNdjsonLimits): Required<SureNdjsonLimits> {
  return {
    maxBytes: limits.maxBytes,
    maxRows: limits.maxRows,
    maxLineBytes: limits.maxLineBytes ?? SURE_NDJSON_LIMITS.maxLineBytes,
    maxDepth: limits.maxDepth ?? SURE_NDJSON_LIMITS.maxDepth,
  };
}

/** The refusal of a file with more rows than one import publishes (Sure's max_row_count_exceeded). */
export function maxRowsError(maxRows: number, counted: { splitLines: boolean }): ImportParseError {
  const rows = counted.splitLines ? "records and transaction split lines" : "records";
  return new ImportParseError("max_row_count_exceeded", `The file has more than ${maxRows} ${rows}, the most one import can take.`);
}
