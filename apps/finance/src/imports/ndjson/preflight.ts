import { ROW_COUNT_WARNING, type ImportPreflight } from "@hearth/contracts";
import { assertCsvSize } from "../parsing/csv-table";
import { fullLimits, SURE_NDJSON_LIMITS, type SureNdjsonLimits } from "./limits";
import { MISSING_CONTENT_MESSAGE, NdjsonContentError } from "./ndjson-content-error";
import { firstRecordLine, withoutBom } from "./ndjson-lines";
import type { NdjsonProblem, ProblemList } from "./problems";
import { entityCountsOf } from "./read-sure-ndjson";
import { scanSureNdjson, type ExistingNames } from "./scan";
import { NDJSON_READS, type TaskOwner } from "./semaphore";

export interface SureNdjsonPreflightOptions {
  /** Refuse (SemaphoreFull) rather than wait behind this many reads (uploads: NDJSON_UPLOADS_WAITING). Default: always wait. */
  maxQueued?: number;
  /** Whose read it is (a family: slots go to the family with the fewest reads running), and its own waiting cap. */
  owner?: TaskOwner;
  limits?: SureNdjsonLimits;
  /** The family's currency (see SureNdjsonReadOptions). Default USD. */
  defaultCurrency?: string;
  /** The family's category, tag and merchant names (Sure's existing_taxonomy_collision). */
  existingNames?: ExistingNames;
  filename?: string;
  contentType?: string;
  source?: "file" | "content";
}

/** A problem as the preflight answers it: Sure's code and message. */
export interface PreflightProblem {
  code: string;
  message: string;
}

/** The API's preflight answer for a SureImport, with what Sure's preflight knows besides. */
export interface SureNdjsonPreflight extends Omit<ImportPreflight, "encoding"> {
  /** Sure's warnings with their codes (`warnings` carries their messages, as Sure's API answers them). */
  warning_details: PreflightProblem[];
  /** Types the file has that Sure does not import. */
  unsupported_types: string[];
  /** Errors found, of which `errors` lists the first. */
  error_count: number;
}

/** What the preflight lists at most (the API's answer holds 50 of each). */
const MAX_LISTED = 50;
const NO_IMPORTABLE_RECORDS = "No importable records were found.";

/** The first problems, the last place saying how many more there are. */
function listed(problems: ProblemList, noun: string): PreflightProblem[] {
  const all = problems.byLine().map(({ code, message }: NdjsonProblem) => ({ code, message }));
  if (problems.total <= MAX_LISTED) return all;
  return [...all.slice(0, MAX_LISTED - 1), { code: `more_${noun}`, message: `…and ${problems.total - (MAX_LISTED - 1)} more ${noun}.` }];
}

/**
 * Sure's preflight of a SureImport (Import::Preflight with SureImport::Preflight): what importing
 * this content would meet, without keeping anything. Throws where Sure answers 422: content too
 * large (ImportParseError) or blank raw content (NdjsonContentError missing_content; a blank
 * uploaded file is answered with no_data_rows, as in Sure). Everything else is the
 * answer, `valid` false when anything would block the import: lines that are no JSON record,
 * unsupported types, missing required fields, bad accountables, split lines that do not add up,
 * references to source ids the file does not give, duplicates, names the family has (with
 * `existingNames`). More rows than one import publishes (records and split lines: see
 * SureNdjsonLimits.maxRows) is a warning, as in Sure; the rows are read all the same (only the
 * byte cap bounds them). Cooperative, and bounded with the reads (see readSureNdjson).
 */
export async function preflightSureNdjson(text: string, options: SureNdjsonPreflightOptions = {}): Promise<SureNdjsonPreflight> {
  const limits = fullLimits(options.limits ?? SURE_NDJSON_LIMITS);
  assertCsvSize(text, limits.maxBytes, options.source);
  const content = withoutBom(text);
  // Blank raw content is no content (422); a blank uploaded file is read, and has no rows.
  if (options.source !== "file" && firstRecordLine(content) === null) throw new NdjsonContentError("missing_content", MISSING_CONTENT_MESSAGE);
  return NDJSON_READS.run(() => preflightOf(text, content, limits, options), options.maxQueued, options.owner);
}

/** The preflight of the content (without its byte order mark) once its size and first line passed. */
async function preflightOf(
  text: string,
  content: string,
  limits: Required<SureNdjsonLimits>,
  options: SureNdjsonPreflightOptions,
): Promise<SureNdjsonPreflight> {
  const scan = await scanSureNdjson(content, {
    limits,
    defaultCurrency: options.defaultCurrency ?? "USD",
    existingNames: options.existingNames,
    maxReportedProblems: MAX_LISTED,
  });
  if (scan.rowsCount === 0) scan.errors.add(0, "no_data_rows", "No data rows were found.");
  const entityCounts = entityCountsOf(scan.recordTypeCounts);
  const warningDetails = listed(scan.warnings, "warnings");
  if (scan.rowsCount > 0 && Object.values(entityCounts).every((count) => count === 0)) {
    warningDetails.push({ code: "no_importable_records", message: NO_IMPORTABLE_RECORDS });
  }
  if (scan.rowsCount + scan.splitLinesCount > limits.maxRows) warningDetails.push({ code: "row_count_exceeded", message: ROW_COUNT_WARNING });
  const kept = warningDetails.slice(0, MAX_LISTED);

  return {
    type: "SureImport",
    valid: scan.errors.total === 0,
    content: {
      filename: options.filename ?? "sure-import.ndjson",
      content_type: options.contentType ?? "application/x-ndjson",
      byte_size: Buffer.byteLength(text, "utf8"),
    },
    stats: {
      rows_count: scan.rowsCount,
      valid_rows_count: scan.validRowsCount,
      invalid_rows_count: scan.rowsCount - scan.validRowsCount,
      entity_counts: entityCounts,
      record_type_counts: scan.recordTypeCounts,
    },
    errors: listed(scan.errors, "errors"),
    warnings: kept.map((warning) => warning.message),
    warning_details: kept,
    unsupported_types: scan.unsupportedTypes,
    error_count: scan.errors.total,
  };
}
