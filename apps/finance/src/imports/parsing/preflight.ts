import {
  IMPORT_COLUMN_LABELS,
  IMPORT_CSV_LIMITS,
  ImportConfigParamsSchema,
  ROW_COUNT_WARNING,
  importMaxRowCount,
  type CsvImportType,
  type ImportConfig,
  type ImportPreflight,
  type ImportPreflightError,
} from "@hearth/contracts";
import { assertCsvSize, parseCsvTable, rowsToSkipIssue, type CsvLimits } from "./csv-table";
import { requiredColumnsOf } from "./field-headers";
import { duplicateHeadersMessage, indexHeaders } from "./headers";
import { missingRequiredHeaders } from "./csv-import";

export interface CsvPreflightInput {
  type: CsvImportType;
  /** The configuration parameters as the client sent them: a bad one is an error in the answer, as in Sure. */
  params: unknown;
  content: string;
  filename?: string;
  contentType?: string;
  /** How the content came (names the size error: file_too_large or content_too_large). */
  source?: "file" | "content";
  limits?: CsvLimits;
  /** The caller has gone: the read stops. */
  signal?: AbortSignal | undefined;
}

/** The labels the client sent, over the defaults: enough to name the required headers of a configuration that failed. */
function labelsOnly(params: unknown): ImportConfig {
  const defaults = ImportConfigParamsSchema.parse({});
  if (params === null || typeof params !== "object") return defaults;
  const given = params as Record<string, unknown>;
  const labels = Object.fromEntries(
    IMPORT_COLUMN_LABELS.flatMap((field) => {
      const value = given[field];
      return typeof value === "string" && value.trim() !== "" ? [[field, value]] : [];
    }),
  );
  return { ...defaults, ...labels };
}

/**
 * Sure's Import::Preflight for a CSV type: what importing this content would meet, without
 * keeping anything. Throws ImportParseError where Sure answers 422 (content or file too large,
 * invalid_csv); everything else is a 200 whose `valid` says whether it would import: a bad
 * configuration (validation_failed, the file unread), missing required headers, headers that
 * normalise alike (ours: Sure's preflight passes them and its import then fails), no data rows.
 * More rows than the type publishes is a warning. Rows are counted, not kept, and the read stops
 * at the first row past the most an import takes (Sure counts them all): rows_count is then
 * that cap plus one, and the warning says there are more.
 */
export async function preflightCsvImport(input: CsvPreflightInput): Promise<Omit<ImportPreflight, "encoding">> {
  const limits = input.limits ?? IMPORT_CSV_LIMITS;
  assertCsvSize(input.content, limits.maxBytes, input.source);
  const content = {
    filename: input.filename ?? "import.csv",
    content_type: input.contentType ?? "text/csv",
    byte_size: Buffer.byteLength(input.content, "utf8"),
  };
  const answer = (config: ImportConfig, rowsCount: number, headers: string[], missing: string[], errors: ImportPreflightError[], warnings: string[]) => ({
    type: input.type,
    valid: errors.length === 0,
    content,
    stats: { rows_count: rowsCount },
    headers,
    required_headers: requiredColumnsOf(input.type, config).map((column) => column.label),
    missing_required_headers: missing,
    errors,
    warnings,
  });

  const parsed = ImportConfigParamsSchema.safeParse(input.params ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({ code: "validation_failed", message: issue.message }));
    return answer(labelsOnly(input.params), 0, [], [], errors, []);
  }
  const config = parsed.data;
  const skipIssue = rowsToSkipIssue(input.content, config.rows_to_skip);
  if (skipIssue !== null) return answer(config, 0, [], [], [{ code: "validation_failed", message: skipIssue }], []);

  const table = await parseCsvTable(input.content, {
    colSep: config.col_sep,
    rowsToSkip: config.rows_to_skip,
    limits: { ...limits, maxRows: Number.MAX_SAFE_INTEGER },
    source: input.source,
    keepRows: false,
    stopAfterRows: Math.max(limits.maxRows, importMaxRowCount(input.type)) + 1,
    signal: input.signal,
  });
  const missing = missingRequiredHeaders(input.type, table.headers, config);
  const errors: ImportPreflightError[] = [];
  if (missing.length > 0) errors.push({ code: "missing_required_headers", message: `Missing required columns: ${missing.join(", ")}` });
  const duplicates = indexHeaders(table.headers).duplicates;
  if (duplicates.length > 0) errors.push({ code: "duplicate_headers", message: duplicateHeadersMessage(duplicates) });
  if (table.rowCount === 0) errors.push({ code: "no_data_rows", message: "No data rows were found." });
  const warnings = table.rowCount > importMaxRowCount(input.type) ? [ROW_COUNT_WARNING] : [];
  return answer(
    config,
    table.rowCount,
    table.headers.filter((header) => header !== ""),
    missing,
    errors,
    warnings,
  );
}
