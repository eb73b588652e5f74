import { isTransactionCsvType, type CsvImportType, type ImportRowFields } from "@hearth/contracts";
import { tagsListOf } from "./tags";

/**
 * The distinct values a user maps before publishing (Sure's mapping_steps), in the order the
 * file first has them. Blank is a value too, as in Sure: the key of "no category", "no tag",
 * or the account rows without one go to.
 */
export interface ImportMappingKeys {
  accounts: string[];
  categories: string[];
  tags: string[];
  account_types: string[];
}

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/**
 * Which mappings a type needs: a transaction import its categories and tags, and its accounts
 * unless the import names one account; a trade import its accounts likewise; an account import
 * the types of its accounts. Category, merchant and rule imports map nothing.
 */
export function mappingKeysOf(type: CsvImportType, rows: readonly { fields: ImportRowFields }[], options: { hasAccount: boolean }): ImportMappingKeys {
  const keys: ImportMappingKeys = { accounts: [], categories: [], tags: [], account_types: [] };
  const needsAccounts = (isTransactionCsvType(type) || type === "TradeImport") && !options.hasAccount;
  if (needsAccounts) keys.accounts = distinct(rows.map((row) => row.fields.account ?? ""));
  if (isTransactionCsvType(type)) {
    keys.categories = distinct(rows.map((row) => row.fields.category ?? ""));
    keys.tags = distinct(rows.flatMap((row) => tagsListOf(row.fields.tags ?? "")));
  }
  if (type === "AccountImport") keys.account_types = distinct(rows.map((row) => row.fields.entity_type ?? ""));
  return keys;
}
