import { isKnownSubtype } from "@hearth/contracts";
import { HEARTH_ACCOUNT_TYPES, isSureAccountableType } from "./accountables";
import { isBlank, isJsonObject, presence } from "./field-schemas";
import { inspect, type ProblemList } from "./problems";
import { REQUIRED_FIELDS, type SureRecordType } from "./record-types";
import { splitLineAmountOf, splitLinesOf } from "./split-lines";

// SureImport::Preflight's checks of one record's raw data, with its codes and messages. Each
// answers whether it found a problem: such a record is not read any further.

/** validate_required_fields: every required field present (not blank in Ruby's sense). */
export function checkRequiredFields(type: SureRecordType, line: number, data: Record<string, unknown>, errors: ProblemList): boolean {
  const missing = REQUIRED_FIELDS[type].filter((field) => isBlank(data[field]));
  if (missing.length === 0) return true;
  errors.add(line, "missing_required_fields", `Line ${line} ${type} is missing required field(s): ${missing.join(", ")}.`);
  return false;
}

/** validate_accountables: an accountable_type Sure knows, and a subtype its class lists (a class without a list takes any). */
export function checkAccountable(line: number, data: Record<string, unknown>, errors: ProblemList): boolean {
  const raw = data["accountable_type"];
  const accountableType = typeof raw === "string" ? raw : raw === null || raw === undefined ? "" : JSON.stringify(raw);
  if (!isSureAccountableType(accountableType)) {
    errors.add(line, "invalid_accountable_type", `Line ${line} Account has invalid accountable_type ${inspect(accountableType)}.`);
    return false;
  }
  const accountable = data["accountable"];
  const subtype = presence(isJsonObject(accountable) ? accountable["subtype"] : undefined) ?? presence(data["subtype"]);
  // The accounts API checks the same list (ACCOUNT_SUBTYPES), so Hearth's own exports pass here.
  if (typeof subtype !== "string" || isKnownSubtype(HEARTH_ACCOUNT_TYPES[accountableType], subtype)) return true;
  errors.add(line, "invalid_accountable_subtype", `Line ${line} Account has invalid ${accountableType} subtype ${inspect(subtype)}.`);
  return false;
}

/** validate_split_lines: a list of JSON objects, each with an amount (their total is checked once the amounts are read). */
export function checkSplitLines(line: number, data: Record<string, unknown>, errors: ProblemList): boolean {
  const splitLines = splitLinesOf(data);
  if (isBlank(splitLines)) return true;
  if (!Array.isArray(splitLines)) {
    errors.add(line, "invalid_split_lines", `Line ${line} Transaction split_lines must be an array.`);
    return false;
  }
  let complete = true;
  splitLines.forEach((splitLine: unknown, index) => {
    if (!isJsonObject(splitLine)) {
      errors.add(line, "invalid_split_line", `Line ${line} Transaction split line ${index + 1} must be a JSON object.`);
      complete = false;
    } else if (isBlank(splitLineAmountOf(splitLine))) {
      errors.add(line, "missing_required_fields", `Line ${line} Transaction split line ${index + 1} is missing required field(s): amount.`);
      complete = false;
    }
  });
  return complete;
}
