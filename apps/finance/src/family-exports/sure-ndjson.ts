import { countRows, type ExportScope } from "./export-scope";
import { joinedRailsLines } from "./joined-lines";
import { accountRecords, balanceRecords } from "./ndjson-accounts-sql";
import { budgetCategoryRecords, budgetRecords } from "./ndjson-budgets-sql";
import { categoryRecords, merchantRecords, tagRecords } from "./ndjson-catalog-sql";
import { holdingRecords, tradeRecords } from "./ndjson-investments";
import { recurringRecords } from "./ndjson-recurring-sql";
import { rejectedTransferRecords, transactionRecords, transferRecords } from "./ndjson-transactions-sql";
import { valuationRecords } from "./ndjson-valuations-sql";
import { ruleBatches } from "./rule-export";
import type { RecordSection } from "./sure-record";

/** Rule records, version 1 of Sure's rule schema (a family has at most a few hundred rules: built here, not in SQL). */
const ruleRecords: RecordSection = {
  type: "Rule",
  async *lines(scope: ExportScope): AsyncGenerator<string> {
    for await (const rules of ruleBatches(scope, "all.ndjson:Rule")) {
      countRows(scope, "all.ndjson:Rule", rules.length);
      yield rules.map((rule) => `${JSON.stringify({ type: "Rule", version: 1, data: rule })}\n`).join("");
    }
  },
};

/**
 * The record types in Sure's order, which is the order its importer needs: accounts before what
 * is in them, categories, tags and merchants before the transactions naming them, transactions
 * before the transfers pairing them, budgets before their categories.
 */
export const NDJSON_SECTIONS: readonly RecordSection[] = [
  accountRecords,
  balanceRecords,
  categoryRecords,
  tagRecords,
  merchantRecords,
  recurringRecords,
  transactionRecords,
  transferRecords,
  rejectedTransferRecords,
  tradeRecords,
  holdingRecords,
  valuationRecords,
  budgetRecords,
  budgetCategoryRecords,
  ruleRecords,
];

async function* allLines(scope: ExportScope): AsyncGenerator<string | Buffer> {
  for (const section of NDJSON_SECTIONS) yield* section.lines(scope);
}

/**
 * all.ndjson: one JSON record a line, lines joined by "\n" with none after the last (as Sure's
 * lines.join("\n")); <, > and & escaped as Rails' JSON encoder does.
 */
export function sureNdjson(scope: ExportScope): AsyncGenerator<Buffer> {
  return joinedRailsLines(allLines(scope));
}
