import { ENTITY_KEYS, isSureRecordType } from "../ndjson/record-types";
/**
 * Sure's import-session summary and error details (Family::DataImporter#compact_summary,
 * ImportSession#error_details_for) from what Hearth's one SureImport of the session wrote.
 */
type Counts = { created: number; updated: number; skipped: number; failed: number };
export type SessionSummary = Record<string, Counts>;

/** Sure's entity key: what the publish's result counts as made, found again (updated) and skipped. */
const ENTITIES: [entity: string, created: string | null, updated: string | null, skipped: string | null][] = [
  ["accounts", "accounts", null, null],
  ["categories", "categories", "categories_reused", null],
  ["tags", "tags", "tags_reused", null],
  ["merchants", "merchants", "merchants_reused", null],
  ["recurring_transactions", "recurring_transactions", null, "skipped_recurring_transactions"],
  ["transactions", "transactions", null, null],
  ["transfers", "transfers", null, "skipped_transfers"],
  ["rejected_transfers", "rejected_transfers", null, "skipped_rejected_transfers"],
  ["trades", "trades", null, null],
  ["valuations", "valuations", null, null],
  ["budgets", "budgets", "budgets_reused", null],
  ["budget_categories", "budget_categories", null, null],
  ["rules", "rules", null, null],
];

/** Holding and Balance lines become Hearth's computations (trades, prices, reconciliations): each line is counted as written. */
const LINE_COUNTED: [entity: string, type: string][] = [
  ["holdings", "Holding"],
  ["balances", "Balance"],
];

const zero = (): Counts => ({ created: 0, updated: 0, skipped: 0, failed: 0 });

/** The complete session's summary: entities with any count (compact_summary). */
export function completedSummary(written: Record<string, number>, records: Record<string, number>): SessionSummary {
  const summary: SessionSummary = {};
  const of = (key: string | null) => (key === null ? 0 : (written[key] ?? 0));
  for (const [entity, created, updated, skipped] of ENTITIES) summary[entity] = { ...zero(), created: of(created), updated: of(updated), skipped: of(skipped) };
  for (const [entity, type] of LINE_COUNTED) summary[entity] = { ...zero(), created: records[type] ?? 0 };
  return Object.fromEntries(Object.entries(summary).filter(([, counts]) => Object.values(counts).some((count) => count > 0)));
}

const SOURCE_TYPES: Record<string, string> = {
  account_id: "Account",
  category_id: "Category",
  parent_id: "Category",
  merchant_id: "Merchant",
  tag_ids: "Tag",
  budget_id: "Budget",
  inflow_transaction_id: "Transaction",
  outflow_transaction_id: "Transaction",
};

/** The problem the publish's reading of the file names first (scan.ts checkReferences' message). */
const MISSING_REFERENCE = /Line \d+ (\w+)(?: split line)? references missing (\w+) ("(?:[^"\\]|\\.)*")/;

/** A quoted id as the publisher wrote it (JSON), or null when it is not one. */
function jsonString(quoted: string): string | null {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** A failed session's error and summary: a missing source id is Sure's missing_source_reference (MissingReferenceError). */
export function failedSession(error: string): { error: Record<string, unknown>; summary: SessionSummary } {
  const match = MISSING_REFERENCE.exec(error);
  const sourceType = match ? SOURCE_TYPES[match[2]!] : undefined;
  if (!match || !sourceType) return { error: { code: "import_failed", message: error }, summary: {} };
  const recordType = match[1]!;
  const entity = isSureRecordType(recordType) ? ENTITY_KEYS[recordType] : undefined;
  const sourceId = jsonString(match[3]!);
  if (sourceId === null) return { error: { code: "import_failed", message: error }, summary: {} };
  return {
    error: {
      code: "missing_source_reference",
      message: `${recordType} references missing ${sourceType} source id ${sourceId}`,
      record_type: recordType,
      source_type: sourceType,
      source_id: sourceId,
    },
    summary: entity ? { [entity]: { ...zero(), failed: 1 } } : {},
  };
}
