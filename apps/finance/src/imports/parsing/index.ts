// The pure parsing of Sure's CSV imports: no database, no HTTP. Routes and publishing build on it.
export { ImportParseError, type ImportParseErrorCode } from "./import-parse-error";
export { assertCsvSize, countLines, dropLines, parseCsvTable, rowsToSkipIssue, type CsvLimits, type CsvTable, type CsvTableOptions } from "./csv-table";
export { cellOf, duplicateHeadersMessage, indexHeaders, normalizeHeader, type HeaderIndex } from "./headers";
export { NUMBER_FORMAT_SYMBOLS, minorUnitsOf, parseAmount, parseDecimal, roundDecimal } from "./number-format";
export { parseDateByFormat } from "./date-format";
export { tagsListOf } from "./tags";
export { signedTradeQty, signedTransactionAmount } from "./signage";
export { requiredColumnsOf, type RequiredColumn } from "./field-headers";
export { mappingKeysOf, type ImportMappingKeys } from "./import-mappings";
export { mapCsvImport, missingRequiredHeaders, readCsvImport, type CsvImportContext, type CsvImportResult } from "./csv-import";
export { preflightCsvImport, type CsvPreflightInput } from "./preflight";
export { parseRuleJson } from "./rule-json";
export type * from "./row-types";
