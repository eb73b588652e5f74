import { IMPORT_CSV_LIMITS, type CsvImportType, type ImportConfig, type ImportPreflightError } from "@hearth/contracts";
import { accountRow } from "./account-rows";
import { actualRow, mintRow, ynabRow } from "./budget-app-rows";
import { categoryRow } from "./category-rows";
import { assertCsvSize, parseCsvTable, rowsToSkipIssue, type CsvLimits, type CsvTable } from "./csv-table";
import { requiredColumnsOf } from "./field-headers";
import { duplicateHeadersMessage, headerPosition, indexHeaders } from "./headers";
import { mappingKeysOf, type ImportMappingKeys } from "./import-mappings";
import { merchantRow } from "./merchant-rows";
import { ruleRow } from "./rule-rows";
import type { CandidateRow, RowContext, RowValuesByType, SourceRow } from "./row-types";
import { Turns } from "../ndjson/turns";
import { tradeRow } from "./trade-rows";
import { transactionRow } from "./transaction-rows";

export interface CsvImportContext extends RowContext {
  /** The import names one account for every row (Sure's import.account): rows need no account mapping. */
  hasAccount: boolean;
}

export interface CsvImportResult<T extends CsvImportType> {
  /** Problems of the file as a whole (missing or ambiguous headers, a bad rows_to_skip), as preflight names them. */
  errors: ImportPreflightError[];
  rows: CandidateRow<RowValuesByType[T]>[];
  mappings: ImportMappingKeys;
}

const ROW_READERS: { [T in CsvImportType]: (row: SourceRow, context: RowContext) => CandidateRow<RowValuesByType[T]> } = {
  TransactionImport: transactionRow,
  MintImport: mintRow,
  YnabImport: ynabRow,
  ActualImport: actualRow,
  TradeImport: tradeRow,
  AccountImport: accountRow,
  CategoryImport: categoryRow,
  MerchantImport: merchantRow,
  RuleImport: ruleRow,
};

/** Sure's missing_required_headers check: the required columns no header provides, by their labels. */
export function missingRequiredHeaders(type: CsvImportType, headers: readonly string[], config: ImportConfig): string[] {
  const index = indexHeaders(headers);
  return requiredColumnsOf(type, config)
    .filter((column) => headerPosition(index, column.headers) === undefined)
    .map((column) => column.label);
}

/**
 * Every row of a CSV table as a candidate of the import's type (Sure's generate_rows_from_csv
 * and row validations), and the values to map. Headers that normalise alike make the file
 * ambiguous: no rows are read then (Sure raises duplicate_headers). A missing required column
 * is reported once here and again on each row ("Date is required").
 */
export async function mapCsvImport<T extends CsvImportType>(
  type: T,
  table: CsvTable,
  context: CsvImportContext,
  signal?: AbortSignal,
): Promise<CsvImportResult<T>> {
  const index = indexHeaders(table.headers);
  if (index.duplicates.length > 0) {
    return {
      errors: [{ code: "duplicate_headers", message: duplicateHeadersMessage(index.duplicates) }],
      rows: [],
      mappings: mappingKeysOf(type, [], context),
    };
  }
  const errors: ImportPreflightError[] = [];
  const missing = missingRequiredHeaders(type, table.headers, context.config);
  if (missing.length > 0) errors.push({ code: "missing_required_headers", message: `Missing required columns: ${missing.join(", ")}` });
  const readRow = ROW_READERS[type] as (row: SourceRow, context: RowContext) => CandidateRow<RowValuesByType[T]>;
  const rows: CandidateRow<RowValuesByType[T]>[] = [];
  // Ten thousand rows take a while to read (dates, amounts, rules): other requests get turns.
  const turns = new Turns();
  for (const [position, record] of table.rows.entries()) {
    rows.push(readRow({ rowNumber: position + 1, record, index }, context));
    if (turns.due()) {
      await turns.pause();
      signal?.throwIfAborted();
    }
  }
  return { errors, rows, mappings: mappingKeysOf(type, rows, context) };
}

/**
 * A CSV import's content read end to end with its configuration: the rows_to_skip bound, the
 * table (throws ImportParseError for a file too large, too many rows, or no CSV), its rows.
 */
export async function readCsvImport<T extends CsvImportType>(
  type: T,
  content: string,
  context: CsvImportContext,
  options: { limits?: CsvLimits; source?: "file" | "content"; signal?: AbortSignal | undefined } = {},
): Promise<CsvImportResult<T>> {
  const limits = options.limits ?? IMPORT_CSV_LIMITS;
  assertCsvSize(content, limits.maxBytes, options.source);
  const skipIssue = rowsToSkipIssue(content, context.config.rows_to_skip);
  if (skipIssue !== null) return { errors: [{ code: "validation_failed", message: skipIssue }], rows: [], mappings: mappingKeysOf(type, [], context) };
  const table = await parseCsvTable(content, {
    colSep: context.config.col_sep,
    rowsToSkip: context.config.rows_to_skip,
    limits,
    source: options.source ?? "content",
    signal: options.signal,
  });
  return mapCsvImport(type, table, context, options.signal);
}
