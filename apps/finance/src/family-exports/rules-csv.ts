import { csvRow, csvText } from "./csv-cell";
import { countRows, type ExportScope } from "./export-scope";
import { ruleBatches } from "./rule-export";
import { railsJson } from "./sure-values";

export const RULES_CSV_HEADER = ["name", "resource_type", "active", "effective_date", "conditions", "actions"] as const;

/**
 * rules.csv: Sure's columns; conditions and actions as the JSON arrays Sure's importer reads back.
 * The name is guarded (csvText); the JSON cells start with "[", never a formula, so their operands
 * (names, values) are safe as they are.
 */
export async function* rulesCsv(scope: ExportScope): AsyncGenerator<string> {
  yield csvRow(RULES_CSV_HEADER);
  for await (const rules of ruleBatches(scope, "rules.csv")) {
    countRows(scope, "rules.csv", rules.length);
    yield rules.map((r) => csvRow([csvText(r.name), r.resource_type, r.active, r.effective_date, railsJson(r.conditions), railsJson(r.actions)])).join("");
  }
}
