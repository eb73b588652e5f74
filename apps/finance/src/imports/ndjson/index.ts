// The pure reading of Sure's NDJSON export (SureImport): no database, no HTTP. Routes and publishing build on it.
export { readSureNdjson, entityCountsOf, type SureNdjsonReadOptions, type SureNdjsonReadResult } from "./read-sure-ndjson";
export { preflightSureNdjson, type PreflightProblem, type SureNdjsonPreflight, type SureNdjsonPreflightOptions } from "./preflight";
export { SURE_NDJSON_LIMITS, type SureNdjsonLimits } from "./limits";
export { NdjsonContentError, type NdjsonContentErrorCode } from "./ndjson-content-error";
export { ENTITY_KEYS, SURE_RECORD_TYPES, type SureEntityCounts, type SureEntityKey, type SureRecordType } from "./record-types";
export { SURE_ACCOUNTABLE_TYPES, type SureAccountableType } from "./accountables";
export type { ExistingNames } from "./scan";
export type { NdjsonProblem } from "./problems";
export type * from "./record-values";
