import { countRows, type ExportScope } from "./export-scope";
import { accountRecords, balanceRecords } from "./ndjson-accounts";
import { budgetCategoryRecords, budgetRecords } from "./ndjson-budgets";
import { categoryRecords, merchantRecords, tagRecords } from "./ndjson-catalog";
import { holdingRecords, tradeRecords } from "./ndjson-investments";
import { recurringRecords } from "./ndjson-recurring";
import { rejectedTransferRecords, transactionRecords, transferRecords } from "./ndjson-transactions";
import { valuationRecords } from "./ndjson-valuations";
import { ruleBatches } from "./rule-export";
import type { RecordSection } from "./sure-record";
import { railsJson } from "./sure-values";

/** Rule records, version 1 of Sure's rule schema. */
async function* ruleRecords(scope: ExportScope): RecordSection {
  for await (const rules of ruleBatches(scope, "all.ndjson:Rule")) {
    yield rules.map((rule) => ({ type: "Rule", version: 1, data: { ...rule } }));
  }
}

/**
 * The record types in Sure's order, which is the order its importer needs: accounts before what
 * is in them, categories, tags and merchants before the transactions naming them, transactions
 * before the transfers pairing them, budgets before their categories.
 */
export const NDJSON_SECTIONS: readonly ((scope: ExportScope) => RecordSection)[] = [
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

/** all.ndjson: one JSON record a line, lines joined by "\n" with none after the last (as Sure's lines.join("\n")). */
export async function* sureNdjson(scope: ExportScope): AsyncGenerator<string> {
  let first = true;
  for (const section of NDJSON_SECTIONS) {
    for await (const records of section(scope)) {
      countRows(scope, `all.ndjson:${records[0]!.type}`, records.length);
      const text = records.map(railsJson).join("\n");
      yield first ? text : `\n${text}`;
      first = false;
    }
  }
}
