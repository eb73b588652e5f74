/** The caps one Sure NDJSON file is read under: a hostile file fails with a clear error, never hangs. */
export interface SureNdjsonLimits {
  /** Sure's SureImport.max_ndjson_size (10 MB): the content's UTF-8 bytes. */
  maxBytes: number;
  /** Sure's SureImport.max_row_count: nonblank lines one import may publish. */
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
