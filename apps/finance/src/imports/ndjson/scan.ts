import { unstorableTextOf } from "@hearth/contracts";
import { plainDecimalOf } from "../../ledger/money";
import { isBlank, isJsonObject, OptionalCurrencySchema } from "./field-schemas";
import { parseJsonLine } from "./json-line";
import { maxRowsError, type SureNdjsonLimits } from "./limits";
import { readLines } from "./ndjson-lines";
import { inspect, ProblemList } from "./problems";
import { checkAccountable, checkRequiredFields, checkSplitLines } from "./record-checks";
import { issuesMessage, recordSchemas } from "./record-schemas";
import {
  isSureRecordType,
  REFERENCE_FIELDS,
  SOFT_REFERENCE_TYPES,
  SOURCE_ID_TYPES,
  SOURCE_KIND_NAMES,
  SURE_RECORD_TYPES,
  TAXONOMY_TYPES,
  type SourceKind,
  type SureRecordType,
  type TaxonomyType,
} from "./record-types";
import type { SureNdjsonRecords, SureTransactionValues } from "./record-values";
import type { ReadContext } from "./read-context";
import { SourceIdIndex } from "./source-ids";
import { splitLinesOf } from "./split-lines";
import { lineUnits, Turns } from "./turns";

/** Names of the family's categories, tags and merchants (a record with one of them collides). */
export type ExistingNames = Partial<Record<TaxonomyType, Iterable<string>>>;

export interface ScanOptions {
  limits: Required<SureNdjsonLimits>;
  defaultCurrency: string;
  existingNames?: ExistingNames;
  /** Problems kept for the answer (all are counted). */
  maxReportedProblems: number;
  /**
   * Refuse the file (ImportParseError max_row_count_exceeded) as soon as its records and split
   * lines pass limits.maxRows, reading no further; else they are only counted (the preflight warns).
   */
  refuseOverMaxRows?: boolean;
}

/** Everything one pass over the file found. */
export interface SureNdjsonScan {
  records: SureNdjsonRecords;
  errors: ProblemList;
  warnings: ProblemList;
  /** Nonblank lines. */
  rowsCount: number;
  /** Split lines of the Transaction records (each is a row written: see SureNdjsonLimits.maxRows). */
  splitLinesCount: number;
  /** Lines that are a JSON object with a supported type and an object as data (Sure's valid_rows_count). */
  validRowsCount: number;
  /** Lines with a type and data, by type (Sure's record_type_counts; unsupported types too). */
  recordTypeCounts: Record<string, number>;
  unsupportedTypes: string[];
}

interface PendingRecord {
  line: number;
  type: SureRecordType;
  data: Record<string, unknown>;
  /** The work of reading it, in Turns units (by the length of its line). */
  units: number;
}

/** Distinct unsupported types named (in counts and the list) at most, and their longest name. */
const MAX_UNSUPPORTED_NAMED = 20;
const MAX_TYPE_NAME = 64;
/** Lines listed in a duplicate-name message at most. */
const MAX_LINES_NAMED = 20;

const clipType = (type: string) => (type.length > MAX_TYPE_NAME ? `${type.slice(0, MAX_TYPE_NAME)}…` : type);

const emptyRecords = (): SureNdjsonRecords => Object.fromEntries(SURE_RECORD_TYPES.map((type) => [type, []])) as unknown as SureNdjsonRecords;

/** A record's source id as Sure tracks it: present text (JSON numbers arrive as their digits). */
const sourceIdOf = (value: unknown): string | null => (typeof value === "string" && !isBlank(value) ? value : null);

/** Counts by type, naming at most MAX_UNSUPPORTED_NAMED unsupported ones. */
class TypeCounts {
  // No prototype: a record type named "constructor" or "toString" is a key like any other (was a 500).
  readonly counts: Record<string, number> = Object.create(null) as Record<string, number>;
  readonly unsupported: string[] = [];

  add(type: string): void {
    const key = clipType(type);
    if (!isSureRecordType(type) && this.counts[key] === undefined) {
      if (this.unsupported.length >= MAX_UNSUPPORTED_NAMED) return;
      this.unsupported.push(key);
    }
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
}

/** Pass one: each line parsed, its envelope checked (Sure's parse_records), source ids tracked. */
async function parseLines(text: string, options: ScanOptions, errors: ProblemList, sourceIds: SourceIdIndex, turns: Turns) {
  const pending: PendingRecord[] = [];
  const types = new TypeCounts();
  let rowsCount = 0;
  let splitLinesCount = 0;
  const { maxRows } = options.limits;
  await readLines(text, turns, ({ number: line, text: lineText }) => {
    rowsCount++;
    const parsed = parseJsonLine(lineText, options.limits);
    if (!parsed.ok) {
      errors.add(line, parsed.code, `Line ${line} ${parsed.message}`);
      return;
    }
    const record = parsed.value;
    if (!isJsonObject(record)) {
      errors.add(line, "invalid_ndjson_record", `Line ${line} must be a JSON object.`);
      return;
    }
    const type = record["type"];
    if (isBlank(type) || !Object.hasOwn(record, "data")) {
      errors.add(line, "invalid_ndjson_record", `Line ${line} must include type and data.`);
      return;
    }
    if (typeof type !== "string") {
      errors.add(line, "invalid_ndjson_record", `Line ${line} type must be text.`);
      return;
    }
    types.add(type);
    if (!isSureRecordType(type)) {
      errors.add(line, "unsupported_record_type", `Line ${line} has unsupported record type ${clipType(type)}.`);
      return;
    }
    const data = record["data"];
    if (!isJsonObject(data)) {
      errors.add(line, "invalid_ndjson_record", `Line ${line} data must be a JSON object.`);
      return;
    }
    // An escaped NUL or a lone surrogate passes JSON.parse but not PostgreSQL: refused here, by line, not by a failed publish.
    const unstorable = unstorableTextOf(data);
    if (unstorable) {
      errors.add(line, "invalid_import_record", `Line ${line} data.${unstorable.path.join(".")} ${unstorable.message}.`);
      return;
    }
    pending.push({ line, type, data, units: lineUnits(lineText.length) });
    const kind = SOURCE_ID_TYPES[type];
    const id = sourceIdOf(data["id"]);
    if (kind && id !== null) sourceIds.track(kind, id, line, type);
    if (type === "Transaction") splitLinesCount += trackSplitLineIds(line, data, sourceIds);
    // Read no further than a refusal needs (see SureNdjsonLimits.maxRows).
    if (options.refuseOverMaxRows && rowsCount + splitLinesCount > maxRows) throw maxRowsError(maxRows, { splitLines: true });
  });
  return { pending, rowsCount, splitLinesCount, types };
}

/** add_split_line_source_ids: a split line's id is a transaction id (a transfer may name it). Answers how many split lines there are. */
function trackSplitLineIds(line: number, data: Record<string, unknown>, sourceIds: SourceIdIndex): number {
  const splitLines = splitLinesOf(data);
  if (!Array.isArray(splitLines)) return 0;
  splitLines.forEach((splitLine: unknown, index) => {
    const id = isJsonObject(splitLine) ? sourceIdOf(splitLine["id"]) : null;
    if (id !== null) sourceIds.track("transactions", id, line, `Transaction split line ${index + 1}`);
  });
  return splitLines.length;
}

/** The currencies records fall back to: each account's and budget's own, else the family's. */
async function readContextOf(pending: readonly PendingRecord[], defaultCurrency: string, turns: Turns): Promise<ReadContext> {
  const accountCurrencies = new Map<string, string>();
  const budgetCurrencies = new Map<string, string>();
  for (const { type, data } of pending) {
    if (turns.due()) await turns.pause();
    if (type !== "Account" && type !== "Budget") continue;
    const id = sourceIdOf(data["id"]);
    if (id === null) continue;
    const currency = OptionalCurrencySchema.safeParse(data["currency"]);
    (type === "Account" ? accountCurrencies : budgetCurrencies).set(id, (currency.success ? currency.data : null) ?? defaultCurrency);
  }
  return { defaultCurrency, accountCurrencies, budgetCurrencies };
}

/** validate_references: every source id a record names is given in the file (RejectedTransfer's only warn). */
function checkReferences(record: PendingRecord, sourceIds: SourceIdIndex, errors: ProblemList, warnings: ProblemList): void {
  const { line, type, data } = record;
  const check = (label: string, kind: SourceKind, field: string, value: unknown) => {
    if (isBlank(value) || typeof value !== "string" || sourceIds.has(kind, value)) return;
    const message = `Line ${line} ${label} references missing ${field} ${inspect(value)}.`;
    if (SOFT_REFERENCE_TYPES.has(type)) warnings.add(line, "skipped_missing_reference", `${message} It will be skipped during import.`);
    else errors.add(line, "missing_reference", message);
  };
  const checkTags = (label: string, tagIds: unknown) => {
    for (const tagId of Array.isArray(tagIds) ? tagIds : [tagIds]) check(label, "tags", "tag_ids", tagId);
  };
  for (const [kind, field] of REFERENCE_FIELDS[type] ?? []) check(type, kind, field, data[field]);
  checkTags(type, data["tag_ids"]);
  if (type !== "Transaction") return;
  const splitLines = splitLinesOf(data);
  if (!Array.isArray(splitLines)) return;
  for (const splitLine of splitLines as unknown[]) {
    if (!isJsonObject(splitLine)) continue;
    check("Transaction split line", "categories", "category_id", splitLine["category_id"]);
    check("Transaction split line", "merchants", "merchant_id", splitLine["merchant_id"]);
    checkTags("Transaction split line", splitLine["tag_ids"]);
  }
}

/** validate_split_line_total: the split lines add up to the transaction, to the minor unit. */
function checkSplitTotal(values: SureTransactionValues, errors: ProblemList): boolean {
  if (values.split_lines.length === 0) return true;
  const total = values.split_lines.reduce((sum, splitLine) => sum + splitLine.amount_cents, 0n);
  if (total === values.amount_cents) return true;
  const expected = plainDecimalOf(values.amount_cents, values.currency);
  errors.add(
    values.line,
    "split_amount_mismatch",
    `Line ${values.line} Transaction split line amounts must sum to transaction amount ${expected} but sum to ${plainDecimalOf(total, values.currency)}.`,
  );
  return false;
}

/**
 * Pass two: each record checked as Sure's preflight does and read into typed values. Each raw
 * record is let go once read (its place in `pending` emptied): the parsed file and its typed
 * values are not both held whole.
 */
async function readRecords(
  pending: (PendingRecord | undefined)[],
  options: ScanOptions,
  sourceIds: SourceIdIndex,
  errors: ProblemList,
  warnings: ProblemList,
  turns: Turns,
) {
  const schemas = recordSchemas(await readContextOf(pending as PendingRecord[], options.defaultCurrency, turns));
  const records = emptyRecords();
  const names = new Map<TaxonomyType, Map<string, number[]>>(TAXONOMY_TYPES.map((type) => [type, new Map()]));
  const valuations = new Map<string, number>();

  for (let index = 0; index < pending.length; index++) {
    const record = pending[index]!;
    pending[index] = undefined;
    if (turns.due(record.units)) await turns.pause();
    const { line, type, data } = record;
    // Like Sure, every check runs and reports: a record with any problem is not read.
    let readable = checkRequiredFields(type, line, data, errors);
    if (type === "Account") readable = checkAccountable(line, data, errors) && readable;
    if (type === "Transaction") readable = checkSplitLines(line, data, errors) && readable;
    if (readable) {
      const parsed = schemas[type].safeParse(data);
      if (!parsed.success) errors.add(line, "invalid_import_record", issuesMessage(line, type, parsed.error.issues));
      else {
        const values = { line, ...parsed.data };
        if (type !== "Transaction" || checkSplitTotal(values as SureTransactionValues, errors)) (records[type] as unknown[]).push(values);
      }
    }
    checkReferences(record, sourceIds, errors, warnings);
    if ((TAXONOMY_TYPES as readonly string[]).includes(type) && typeof data["name"] === "string" && data["name"].trim() !== "") {
      const byName = names.get(type as TaxonomyType)!;
      const name = data["name"].trim();
      const lines = byName.get(name);
      if (lines) lines.push(line);
      else byName.set(name, [line]);
    }
    if (type === "Valuation") checkDuplicateValuation(line, data, valuations, errors);
  }
  return { records, names };
}

/** validate_duplicate_valuations: one valuation per account and day. */
function checkDuplicateValuation(line: number, data: Record<string, unknown>, seen: Map<string, number>, errors: ProblemList): void {
  const accountId = data["account_id"];
  const date = data["date"];
  if (typeof accountId !== "string" || typeof date !== "string" || isBlank(accountId) || isBlank(date)) return;
  const key = `${accountId}\u0000${date}`;
  const first = seen.get(key);
  if (first === undefined) seen.set(key, line);
  else errors.add(line, "duplicate_valuation", `Line ${line} duplicates valuation for account ${inspect(accountId)} on ${date}; first seen on line ${first}.`);
}

/** validate_duplicate_taxonomy_names and validate_taxonomy_collisions (the latter when the family's names are given). */
async function checkTaxonomyNames(
  names: Map<TaxonomyType, Map<string, number[]>>,
  existing: ExistingNames | undefined,
  errors: ProblemList,
  turns: Turns,
): Promise<void> {
  for (const [type, byName] of names) {
    const taken = new Set(existing?.[type] ?? []);
    for (const [name, lines] of byName) {
      if (turns.due()) await turns.pause();
      for (const line of taken.has(name) ? lines : []) {
        errors.add(line, "existing_taxonomy_collision", `Line ${line} ${type} name ${inspect(name)} already exists in this family.`);
      }
      if (lines.length < 2) continue;
      const listed = lines.slice(0, MAX_LINES_NAMED).join(", ") + (lines.length > MAX_LINES_NAMED ? ` and ${lines.length - MAX_LINES_NAMED} more` : "");
      errors.add(lines[1]!, "duplicate_taxonomy_name", `${type} name ${inspect(name)} appears more than once in the NDJSON on lines ${listed}.`);
    }
  }
}

/**
 * Reads every line of a Sure NDJSON file and checks it as SureImport::Preflight does, without a
 * database: the envelope of each line, required fields, accountable types and subtypes, split
 * lines, references to source ids given in the same file, duplicate source ids, names and
 * valuations. Records that pass are typed values; the size cap is the caller's, the row cap too
 * unless `refuseOverMaxRows`. Cooperative: every loop gives the event loop a turn after about
 * 10 ms of work (see Turns), so other requests are served while a large file is read.
 */
export async function scanSureNdjson(text: string, options: ScanOptions, turns = new Turns()): Promise<SureNdjsonScan> {
  const errors = new ProblemList(options.maxReportedProblems);
  const warnings = new ProblemList(options.maxReportedProblems);
  const sourceIds = new SourceIdIndex();
  const { pending, rowsCount, splitLinesCount, types } = await parseLines(text, options, errors, sourceIds, turns);
  const validRowsCount = pending.length;
  const { records, names } = await readRecords(pending, options, sourceIds, errors, warnings, turns);
  for (const duplicate of sourceIds.duplicates()) {
    if (turns.due()) await turns.pause();
    errors.add(
      duplicate.line,
      "duplicate_source_id",
      `${SOURCE_KIND_NAMES[duplicate.kind]} source id ${inspect(duplicate.id)} appears more than once (${duplicate.places}).`,
    );
  }
  await checkTaxonomyNames(names, options.existingNames, errors, turns);
  return {
    records,
    errors,
    warnings,
    rowsCount,
    splitLinesCount,
    validRowsCount,
    recordTypeCounts: types.counts,
    unsupportedTypes: types.unsupported,
  };
}
