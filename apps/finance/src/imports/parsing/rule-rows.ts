import { DateInputSchema, RULE_LIMITS, type ImportColumnSeparator, type ImportRowFields } from "@hearth/contracts";
import { parseDateByFormat } from "./date-format";
import { RULE_HEADERS } from "./field-headers";
import { unguardedText } from "./formula-guard";
import { cellOf, headerPosition } from "./headers";
import { parseRuleJson } from "./rule-json";
import { checkLength, checkRequired } from "./row-checks";
import { emptyFields, type CandidateRow, type RowContext, type RowError, type RuleRowValues, type SourceRow } from "./row-types";

/** Sure's RuleImport#parse_boolean: true, 1, yes, y (any case) are true; anything else false. */
function ruleBoolean(text: string): boolean {
  return ["true", "1", "yes", "y"].includes(text.toLowerCase());
}

/** `text` without the runs of double quotes at either end. */
function stripQuotes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '"') start++;
  while (end > start && text[end - 1] === '"') end--;
  return text.slice(start, end);
}

/**
 * Where `]"` + separator + `"[` joins two JSON arrays, or null: the seam Sure's
 * extract_conditions_and_actions cuts a row at whose unescaped JSON quotes split it into pieces.
 */
function arraySeam(text: string, separator: string): { end: number; start: number } | null {
  for (let at = text.indexOf(']"'); at !== -1; at = text.indexOf(']"', at + 1)) {
    let next = at + 2;
    while (text[next] === " " || text[next] === "\t") next++;
    if (text[next] !== separator) continue;
    next++;
    while (text[next] === " " || text[next] === "\t") next++;
    if (text.startsWith('"[', next)) return { end: at + 1, start: next + 1 };
  }
  return null;
}

/**
 * The conditions and actions cells. A well-formed row has them under their headers. A row whose
 * JSON quotes were not doubled comes out of the CSV reader in pieces from the fifth column on
 * (Sure's template order: name, resource_type, active, effective_date, conditions, actions);
 * as in Sure the pieces are joined again and cut where one JSON array ends and the next begins.
 */
function conditionsAndActions(row: SourceRow, separator: ImportColumnSeparator): [string, string] {
  const conditionsAt = headerPosition(row.index, RULE_HEADERS.conditions);
  const actionsAt = headerPosition(row.index, RULE_HEADERS.actions);
  if (conditionsAt !== undefined && actionsAt !== undefined && row.record.length <= row.index.width) {
    return [row.record[conditionsAt] ?? "", row.record[actionsAt] ?? ""];
  }
  const pieces = row.record.slice(4);
  const joined = pieces.join(separator);
  const seam = arraySeam(joined, separator);
  if (seam === null) return [stripQuotes(pieces[0] ?? ""), stripQuotes(pieces[1] ?? "")];
  return [stripQuotes(joined.slice(0, seam.end).trim()), stripQuotes(joined.slice(seam.start).trim())];
}

/** A rule's effective date: ISO as Sure's template writes it, or in the import's date format; blank is none. */
function effectiveDateOf(text: string, context: RowContext, errors: RowError[]): string | null {
  if (text === "") return null;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : parseDateByFormat(text, context.config.date_format);
  if (date !== null && DateInputSchema.safeParse(date).success) return date;
  errors.push({ field: "effective_date", message: "Effective date is not a valid date (YYYY-MM-DD)" });
  return null;
}

/**
 * A RuleImport row (Sure's template: name, resource_type*, active, effective_date, conditions*,
 * actions*). Each of the first four comes from its header, else from its place in the row, as
 * Sure's normalize_rule_row reads it. What Sure finds only while publishing is reported here:
 * a resource type other than "transaction", JSON that does not parse, a rule without actions.
 * Unlike Sure, an effective date that is no date is an error rather than silently none.
 */
export function ruleRow(row: SourceRow, context: RowContext): CandidateRow<RuleRowValues> {
  const read = (headers: readonly string[], position: number) => cellOf(row.record, row.index, headers) ?? row.record[position] ?? "";
  const name = unguardedText(read(RULE_HEADERS.name, 0));
  const resourceType = read(RULE_HEADERS.resource_type, 1);
  const active = ruleBoolean(read(RULE_HEADERS.active, 2));
  const effectiveDate = read(RULE_HEADERS.effective_date, 3);
  const [conditionsText, actionsText] = conditionsAndActions(row, context.config.col_sep);
  const fields: ImportRowFields = {
    ...emptyFields(),
    name,
    currency: context.defaultCurrency,
    active,
    effective_date: effectiveDate,
    conditions: conditionsText,
    actions: actionsText,
  };
  const errors: RowError[] = [];

  checkLength(name, RULE_LIMITS.nameLength, "name", "Name", errors);
  if (checkRequired(resourceType, "resource_type", "Resource type", errors) && resourceType !== "transaction") {
    errors.push({ field: "resource_type", message: `Unsupported resource type: ${resourceType.slice(0, 100)}` });
  }
  const date = effectiveDateOf(effectiveDate, context, errors);
  const conditions = checkRequired(conditionsText, "conditions", "Conditions", errors) ? parseRuleJson(conditionsText, "conditions") : null;
  const actions = checkRequired(actionsText, "actions", "Actions", errors) ? parseRuleJson(actionsText, "actions") : null;
  if (conditions && !conditions.ok) errors.push({ field: "conditions", message: conditions.message });
  if (actions && !actions.ok) errors.push({ field: "actions", message: actions.message });
  if (actions?.ok && actions.items.length === 0) errors.push({ field: "actions", message: "Rule must have at least one action" });

  if (errors.length > 0 || !conditions?.ok || !actions?.ok) return { row_number: row.rowNumber, fields, errors, values: null };
  return {
    row_number: row.rowNumber,
    fields,
    errors,
    values: {
      name: name === "" ? null : name,
      resource_type: "transaction",
      active,
      effective_date: date,
      conditions: conditions.items,
      actions: actions.items,
    },
  };
}
