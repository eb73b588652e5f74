/**
 * Sure's importable record types in the order Family::DataImporter imports them (the order its
 * exporter writes them): accounts before what is in them, categories, tags and merchants before
 * the transactions naming them, transactions before the transfers pairing them, budgets before
 * their categories.
 */
export const SURE_RECORD_TYPES = [
  "Account",
  "Balance",
  "Category",
  "Tag",
  "Merchant",
  "RecurringTransaction",
  "Transaction",
  "Transfer",
  "RejectedTransfer",
  "Trade",
  "Holding",
  "Valuation",
  "Budget",
  "BudgetCategory",
  "Rule",
] as const;
export type SureRecordType = (typeof SURE_RECORD_TYPES)[number];

export const isSureRecordType = (type: string): type is SureRecordType => (SURE_RECORD_TYPES as readonly string[]).includes(type);

/** SureImport::IMPORTABLE_NDJSON_TYPES: each type's key in expected_record_counts and the dry run. */
export const ENTITY_KEYS = {
  Account: "accounts",
  Balance: "balances",
  Category: "categories",
  Tag: "tags",
  Merchant: "merchants",
  RecurringTransaction: "recurring_transactions",
  Transaction: "transactions",
  Transfer: "transfers",
  RejectedTransfer: "rejected_transfers",
  Trade: "trades",
  Holding: "holdings",
  Valuation: "valuations",
  Budget: "budgets",
  BudgetCategory: "budget_categories",
  Rule: "rules",
} as const satisfies Record<SureRecordType, string>;
export type SureEntityKey = (typeof ENTITY_KEYS)[SureRecordType];
export type SureEntityCounts = Record<SureEntityKey, number>;

/** SureImport::Preflight::REQUIRED_FIELDS: a blank one (Ruby's blank?) blocks the import. */
export const REQUIRED_FIELDS: Record<SureRecordType, readonly string[]> = {
  Account: ["id", "name", "balance", "accountable_type"],
  Balance: ["account_id", "date", "balance"],
  Category: ["id", "name"],
  Tag: ["id", "name"],
  Merchant: ["id", "name"],
  RecurringTransaction: ["id", "amount", "expected_day_of_month", "last_occurrence_date", "next_expected_date"],
  Transaction: ["id", "account_id", "date", "amount"],
  Transfer: ["inflow_transaction_id", "outflow_transaction_id"],
  RejectedTransfer: ["inflow_transaction_id", "outflow_transaction_id"],
  Trade: ["account_id", "date", "amount", "qty", "price", "ticker"],
  Holding: ["account_id", "date", "amount", "qty", "price", "ticker"],
  Valuation: ["account_id", "date", "amount"],
  Budget: ["id", "start_date", "end_date"],
  BudgetCategory: ["budget_id", "category_id"],
  Rule: ["id"],
};

/** The kinds of record another may point at by source id (Sure's SOURCE_ID_TYPES mapping keys). */
export type SourceKind = "accounts" | "categories" | "tags" | "merchants" | "recurring_transactions" | "transactions" | "budgets";

/** The types whose `id` is a source id others point at (a transaction's split lines are transactions too). */
export const SOURCE_ID_TYPES: Partial<Record<SureRecordType, SourceKind>> = {
  Category: "categories",
  Tag: "tags",
  Merchant: "merchants",
  Account: "accounts",
  RecurringTransaction: "recurring_transactions",
  Transaction: "transactions",
  Budget: "budgets",
};

/** A source kind's name in Sure's duplicate message ("account source id ..."). */
export const SOURCE_KIND_NAMES: Record<SourceKind, string> = {
  accounts: "account",
  categories: "category",
  tags: "tag",
  merchants: "merchant",
  recurring_transactions: "recurring transaction",
  transactions: "transaction",
  budgets: "budget",
};

/** SureImport::Preflight::REFERENCE_FIELDS: the fields naming another record's source id (tag_ids and split lines aside). */
export const REFERENCE_FIELDS: Partial<Record<SureRecordType, readonly (readonly [SourceKind, string])[]>> = {
  Balance: [["accounts", "account_id"]],
  Category: [["categories", "parent_id"]],
  RecurringTransaction: [
    ["accounts", "account_id"],
    ["merchants", "merchant_id"],
  ],
  Transaction: [
    ["accounts", "account_id"],
    ["categories", "category_id"],
    ["merchants", "merchant_id"],
  ],
  Transfer: [
    ["transactions", "inflow_transaction_id"],
    ["transactions", "outflow_transaction_id"],
  ],
  RejectedTransfer: [
    ["transactions", "inflow_transaction_id"],
    ["transactions", "outflow_transaction_id"],
  ],
  Trade: [["accounts", "account_id"]],
  Holding: [["accounts", "account_id"]],
  Valuation: [["accounts", "account_id"]],
  BudgetCategory: [
    ["budgets", "budget_id"],
    ["categories", "category_id"],
  ],
};

/**
 * SOFT_REFERENCE_TYPES: Sure's importer skips a rejected transfer whose transactions are gone (it
 * only stops two transactions from being matched again), so its dangling reference is a warning.
 */
export const SOFT_REFERENCE_TYPES: ReadonlySet<SureRecordType> = new Set(["RejectedTransfer"]);

/** Preflight's TAXONOMY_TYPES: names unique in the file and in the family. */
export const TAXONOMY_TYPES = ["Category", "Tag", "Merchant"] as const satisfies readonly SureRecordType[];
export type TaxonomyType = (typeof TAXONOMY_TYPES)[number];

/** Every entity key at 0, in Sure's order. */
export function emptyEntityCounts(): SureEntityCounts {
  return Object.fromEntries(SURE_RECORD_TYPES.map((type) => [ENTITY_KEYS[type], 0])) as SureEntityCounts;
}
