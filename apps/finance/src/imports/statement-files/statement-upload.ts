import {
  AppError,
  IMPORT_CSV_LIMITS,
  ImportConfigParamsSchema,
  ROW_COUNT_WARNING,
  importMaxRowCount,
  type ImportConfig,
  type ImportPreflight,
  type ImportPreflightError,
  type TextEncoding,
} from "@hearth/contracts";
import { convertedWarning, currencyCoverage, foreignCurrenciesOf, missingRatesMessage } from "../currencies/foreign-currencies";
import type { ImportRepository, StoredRow } from "../import-repository";
import { readOfxImport } from "../ofx/ofx-import";
import { ImportParseError, assertCsvSize } from "../parsing";
import { readQifImport } from "../qif/qif-import";
import type { StatementFileRead, StatementReadOptions } from "./statement-file";
import { StatementFileError } from "./statement-file-error";

/** The import types whose content is a bank's statement file rather than a CSV table. */
export const STATEMENT_FILE_TYPES = ["OfxImport", "QifImport"] as const;
export type StatementFileType = (typeof STATEMENT_FILE_TYPES)[number];

export const isStatementFileType = (type: string): type is StatementFileType => (STATEMENT_FILE_TYPES as readonly string[]).includes(type);

/** The name and media type a preflight reports for content sent as text. */
const DEFAULT_UPLOAD = {
  OfxImport: { filename: "import.ofx", contentType: "application/x-ofx" },
  QifImport: { filename: "import.qif", contentType: "application/qif" },
} as const;
/** Row problems a preflight names at most (its answer holds 50 errors). */
const ERRORS_NAMED = 49;

export interface StatementUpload {
  type: StatementFileType;
  content: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  /** The encoding the gateway read the file in (undefined: JSON text). */
  encoding?: TextEncoding | undefined;
}

/** A file refused as a whole, answered with its 422. */
async function accepted<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof StatementFileError || err instanceof ImportParseError) throw err.toAppError();
    throw err;
  }
}

/** The file's text (a byte order mark dropped), refused as CSV content is when it is missing or too large. */
function contentOf(upload: StatementUpload): string {
  if (upload.content === undefined || upload.content === "") throw new AppError("missing_content");
  const content = upload.content;
  try {
    assertCsvSize(content, IMPORT_CSV_LIMITS.maxBytes, upload.filename !== undefined ? "file" : "content");
  } catch (err) {
    throw err instanceof ImportParseError ? err.toAppError() : err;
  }
  return content.startsWith("\uFEFF") ? content.slice(1) : content;
}

/** Reads the file in turns of the event loop (a large upload's turn at the service is the large-body gate's). */
function readStatementFile(type: StatementFileType, content: string, options: Omit<StatementReadOptions, "maxRows">): Promise<StatementFileRead> {
  const read = type === "OfxImport" ? readOfxImport : readQifImport;
  return accepted(() => read(content, { ...options, maxRows: importMaxRowCount(type) }));
}

/**
 * Creates an OfxImport or QifImport: the file is read at once into rows stored as a CSV
 * import's are (GET /imports/{id}/rows shows them), with the configuration it was read in.
 * Its transactions go to one account, so account_id is required (Sure's QifImport publishes
 * only with an account). More transactions than an import publishes is refused, as a CSV with
 * too many rows; asked to publish, an import with rows in error is stored and refused
 * (not_publishable), else queued. Answers the import's id.
 */
export async function createStatementImport(
  imports: ImportRepository,
  familyId: string,
  request: StatementUpload & { accountId: string | undefined; config: ImportConfig },
  options: {
    currency: string;
    today: string;
    publish: boolean;
    queued: () => void;
    signal?: AbortSignal | undefined;
    /** What must hold before it is queued (its rows' currencies covered, its account names mapped): throws the 422. */
    beforePublish: (importId: string) => Promise<void>;
  },
): Promise<string> {
  // A QIF file may name its accounts (Quicken's all-accounts export): then its rows go to theirs.
  if (request.accountId === undefined && request.type !== "QifImport") {
    throw AppError.validation([`account_id is required: a ${request.type}'s transactions go to one account`]);
  }
  const content = contentOf(request);
  const read = await readStatementFile(request.type, content, {
    config: request.config,
    defaultCurrency: options.currency,
    today: options.today,
    signal: options.signal,
    hasAccount: request.accountId !== undefined,
  });
  if (request.accountId === undefined && read.rows.some((row) => row.values !== null && row.values.account === "")) {
    throw AppError.validation(["account_id is required: the QIF file names no account (no !Account record) for its transactions"]);
  }
  const maxRows = importMaxRowCount(request.type);
  if (read.transactionCount > maxRows) {
    throw new AppError("max_row_count_exceeded", { message: `The file has more than ${maxRows} transactions, the most one import can take.` });
  }
  if (read.rows.length === 0) throw AppError.validation(["The file has no transactions"]);
  const rows: StoredRow[] = read.rows.map((row) => ({
    rowNumber: row.row_number,
    fields: row.fields,
    errors: row.errors,
    values: row.values as Record<string, unknown> | null,
  }));
  const created = await imports.create(familyId, {
    type: request.type,
    accountId: request.accountId ?? null,
    configuration: read.config,
    content,
    encoding: request.encoding,
    rows,
  });
  if (!options.publish) return created.id;
  if (created.validRowsCount < created.rowsCount) {
    throw new AppError("not_publishable", { message: "Import was uploaded but has rows with errors: see its rows.", importId: created.id });
  }
  await options.beforePublish(created.id);
  await imports.requestPublish(familyId, created.id);
  options.queued();
  return created.id;
}

/**
 * Preflight of an OFX or QIF file: read as create would read it, nothing kept. A file refused as
 * a whole is its 422, as invalid CSV is; otherwise a 200 whose `valid` says whether it would
 * import: a bad configuration (validation_failed), rows in error (validation_failed, each named
 * with its row), no transactions (no_data_rows). More transactions than an import takes is a
 * warning, as for CSV.
 */
export async function preflightStatementImport(
  upload: StatementUpload,
  params: unknown,
  options: {
    currency: string;
    today: string;
    signal?: AbortSignal | undefined;
    /** The account the file is for, when named: rows in another currency are checked against the family's rates. */
    account?: { familyId: string; currency: string; rates: Pick<ImportRepository, "coveredCurrencies"> } | undefined;
  },
): Promise<Omit<ImportPreflight, "encoding">> {
  const defaults = DEFAULT_UPLOAD[upload.type];
  const answer = (stats: ImportPreflight["stats"], errors: ImportPreflightError[], warnings: string[]): Omit<ImportPreflight, "encoding"> => ({
    type: upload.type,
    valid: errors.length === 0,
    content: {
      filename: upload.filename ?? defaults.filename,
      content_type: upload.contentType ?? defaults.contentType,
      byte_size: Buffer.byteLength(upload.content ?? "", "utf8"),
    },
    stats,
    headers: null,
    required_headers: null,
    missing_required_headers: null,
    errors,
    warnings,
  });
  const content = contentOf(upload);
  const config = ImportConfigParamsSchema.safeParse(params ?? {});
  if (!config.success) {
    return answer({ rows_count: 0 }, config.error.issues.map((issue) => ({ code: "validation_failed", message: issue.message })).slice(0, 50), []);
  }
  const read = await readStatementFile(upload.type, content, {
    config: config.data,
    defaultCurrency: options.currency,
    today: options.today,
    signal: options.signal,
    hasAccount: options.account !== undefined,
  });
  const invalid = read.rows.filter((row) => row.errors.length > 0);
  const errors: ImportPreflightError[] = invalid
    .slice(0, ERRORS_NAMED)
    .map((row) => ({ code: "validation_failed", message: `Row ${row.row_number}: ${row.errors.map((error) => error.message).join(", ")}` }));
  if (invalid.length > ERRORS_NAMED) errors.push({ code: "validation_failed", message: `${invalid.length - ERRORS_NAMED} more rows have errors` });
  if (read.transactionCount === 0) errors.push({ code: "no_data_rows", message: "No transactions were found." });
  const warnings: string[] = [];
  const names = [...new Set(read.rows.flatMap((row) => (row.values && row.values.account !== "" ? [row.values.account] : [])))];
  if (names.length > 0) {
    const shown = names.slice(0, 10).map((name) => JSON.stringify(name));
    warnings.push(
      `The file holds the transactions of ${names.length} accounts (${shown.join(", ")}): each goes to the account of its name, or where it is mapped after upload (PUT /api/v1/imports/{id}/account_mappings)`,
    );
  }
  if (options.account) {
    const { familyId, currency, rates } = options.account;
    const values = read.rows.flatMap((row) => (row.values ? [row.values] : []));
    const coverage = await currencyCoverage(rates, familyId, currency, foreignCurrenciesOf(values, currency));
    if (coverage.missing.length > 0) errors.push({ code: "missing_exchange_rates", message: missingRatesMessage(coverage) });
    if (coverage.covered.length > 0) warnings.push(convertedWarning(coverage));
  }
  const complete = read.transactionCount <= read.rows.length;
  const stats = complete
    ? { rows_count: read.transactionCount, valid_rows_count: read.rows.length - invalid.length, invalid_rows_count: invalid.length }
    : { rows_count: read.transactionCount };
  return answer(stats, errors, complete ? warnings : [...warnings, ROW_COUNT_WARNING]);
}
