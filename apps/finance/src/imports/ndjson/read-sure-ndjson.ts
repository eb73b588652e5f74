import { assertCsvSize } from "../parsing/csv-table";
import { parseJsonLine } from "./json-line";
import { fullLimits, maxRowsError, SURE_NDJSON_LIMITS, type SureNdjsonLimits } from "./limits";
import { INVALID_NDJSON_MESSAGE, MISSING_CONTENT_MESSAGE, NdjsonContentError } from "./ndjson-content-error";
import { countRecordLines, firstRecordLine, withoutBom } from "./ndjson-lines";
import type { NdjsonProblem } from "./problems";
import { ENTITY_KEYS, emptyEntityCounts, isSureRecordType, type SureEntityCounts } from "./record-types";
import type { SureNdjsonRecords } from "./record-values";
import { scanSureNdjson, type ExistingNames, type SureNdjsonScan } from "./scan";
import { isJsonObject } from "./field-schemas";
import { NDJSON_READS, type TaskOwner } from "./semaphore";
import { Turns } from "./turns";

export interface SureNdjsonReadOptions {
  /** Refuse (SemaphoreFull) rather than wait behind this many reads (uploads: NDJSON_UPLOADS_WAITING). Default: always wait. */
  maxQueued?: number;
  /** Whose read it is (a family: slots go to the family with the fewest reads running), and its own waiting cap. */
  owner?: TaskOwner;
  /** The family's currency: what a record (or its account) without a currency is in. Default USD (Sure's family default). */
  defaultCurrency?: string;
  /** The family's category, tag and merchant names: a record reusing one is an error (Sure's taxonomy collision). */
  existingNames?: ExistingNames;
  /** How the content came: an uploaded file or raw_file_content (names the size error, as Sure does). */
  source?: "file" | "content";
  /** Problems kept in the answer (all are counted). Default 1,000. */
  maxReportedProblems?: number;
}

export interface SureNdjsonReadResult {
  /** The records that passed every check, by type; iterate SURE_RECORD_TYPES for the order an import needs. */
  records: SureNdjsonRecords;
  /** Why the file would not import, by line (the first maxReportedProblems). Empty: every record can be published. */
  errors: NdjsonProblem[];
  /** What would be skipped without failing the import (a rejected transfer naming a missing transaction). */
  warnings: NdjsonProblem[];
  errorCount: number;
  warningCount: number;
  /** Sure's expected_record_counts: lines with a type and data, by entity key, every key present. */
  counts: SureEntityCounts;
  /** Sure's record_type_counts: the same by record type, unsupported types included. */
  recordTypeCounts: Record<string, number>;
  /** Nonblank lines. */
  rowsCount: number;
  /** Lines that are an object with a supported type and object data. */
  validRowsCount: number;
  /** Types the file has that Sure does not import (each of their lines is an error). */
  unsupportedTypes: string[];
}

const DEFAULT_CURRENCY = "USD";
const DEFAULT_MAX_REPORTED = 1_000;

/** Sure's expected_record_counts from the counts by record type. */
export function entityCountsOf(recordTypeCounts: Record<string, number>): SureEntityCounts {
  const counts = emptyEntityCounts();
  for (const [type, count] of Object.entries(recordTypeCounts)) if (isSureRecordType(type)) counts[ENTITY_KEYS[type]] = count;
  return counts;
}

/**
 * Sure's valid_ndjson_first_line?: the first record is a JSON object with a type and data.
 * (Sure reads the very first line; a leading blank line or byte order mark is passed over here.)
 * Blank raw content is missing_content; a blank uploaded file is invalid_ndjson (Sure's
 * controller checks `present?` on the parameter, which an empty file passes).
 */
function assertFirstRecord(content: string, limits: Required<SureNdjsonLimits>, source: "file" | "content"): void {
  const first = firstRecordLine(content);
  if (first === null && source === "file") throw new NdjsonContentError("invalid_ndjson", INVALID_NDJSON_MESSAGE, ["The file has no records."]);
  if (first === null) throw new NdjsonContentError("missing_content", MISSING_CONTENT_MESSAGE);
  const parsed = parseJsonLine(first.text, limits);
  if (!parsed.ok) throw new NdjsonContentError("invalid_ndjson", INVALID_NDJSON_MESSAGE, [`Line ${first.number} ${parsed.message}`]);
  if (!isJsonObject(parsed.value) || !Object.hasOwn(parsed.value, "type") || !Object.hasOwn(parsed.value, "data")) {
    throw new NdjsonContentError("invalid_ndjson", INVALID_NDJSON_MESSAGE, [`Line ${first.number} must be a JSON object with type and data.`]);
  }
}

/** The scan as the reader answers it. */
export function readResultOf(scan: SureNdjsonScan): SureNdjsonReadResult {
  return {
    records: scan.records,
    errors: scan.errors.byLine(),
    warnings: scan.warnings.byLine(),
    errorCount: scan.errors.total,
    warningCount: scan.warnings.total,
    counts: entityCountsOf(scan.recordTypeCounts),
    recordTypeCounts: scan.recordTypeCounts,
    rowsCount: scan.rowsCount,
    validRowsCount: scan.validRowsCount,
    unsupportedTypes: scan.unsupportedTypes,
  };
}

/**
 * A Sure NDJSON export (all.ndjson) read line by line into typed records, without a database.
 * Throws for a file refused as a whole, as Sure's imports controller answers it: too large
 * (ImportParseError file_too_large / content_too_large), no content (NdjsonContentError
 * missing_content), a first record that is no Sure record (invalid_ndjson), more rows than one
 * import publishes, records and split lines counted (ImportParseError max_row_count_exceeded; see
 * SureNdjsonLimits.maxRows). Everything else is a problem of a line in `errors`, as Sure's
 * preflight reports it; the records that passed are in `records`. Cooperative (see
 * scanSureNdjson), and at most NDJSON_READS.size reads (this and the preflight) run at once.
 */
export async function readSureNdjson(
  text: string,
  limits: SureNdjsonLimits = SURE_NDJSON_LIMITS,
  options: SureNdjsonReadOptions = {},
): Promise<SureNdjsonReadResult> {
  const full = fullLimits(limits);
  assertCsvSize(text, full.maxBytes, options.source);
  const content = withoutBom(text);
  assertFirstRecord(content, full, options.source ?? "content");
  return NDJSON_READS.run(
    async () => {
      const turns = new Turns();
      // Lines first, without parsing one: a file of a million short lines is refused at once.
      if ((await countRecordLines(content, turns, full.maxRows)) > full.maxRows) throw maxRowsError(full.maxRows, { splitLines: false });
      const scan = await scanSureNdjson(
        content,
        {
          limits: full,
          defaultCurrency: options.defaultCurrency ?? DEFAULT_CURRENCY,
          existingNames: options.existingNames,
          maxReportedProblems: options.maxReportedProblems ?? DEFAULT_MAX_REPORTED,
          refuseOverMaxRows: true,
        },
        turns,
      );
      return readResultOf(scan);
    },
    options.maxQueued,
    options.owner,
  );
}
