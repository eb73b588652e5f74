import type { ImportConfig, ImportRowFields } from "@hearth/contracts";
import type { HeaderIndex } from "./headers";

/** What reading a row needs besides the row: the import's configuration and the day it happens. */
export interface RowContext {
  config: ImportConfig;
  /** Sure's default_currency: the import's account's currency, else the family's. */
  defaultCurrency: string;
  /** Today (YYYY-MM-DD): a row dated after it, or more than 30 years before it, is refused (Sure's date_valid). */
  today: string;
}

/** One CSV data row and where its cells are. */
export interface SourceRow {
  /** 1 for the first data row below the header (Sure's source_row_number). */
  rowNumber: number;
  record: readonly string[];
  index: HeaderIndex;
}

/** Why a row cannot be published: the field it is about and Sure's full message ("Date is required"). */
export interface RowError {
  field: string;
  message: string;
}

/**
 * A row read from the file: its text as Sure's import_rows keep it (what the row diagnostics
 * show), its errors, and the typed values a publish writes (null while it has errors).
 */
export interface CandidateRow<V> {
  row_number: number;
  fields: ImportRowFields;
  errors: RowError[];
  values: V | null;
}

/** A transaction row. Amounts carry Sure's sign: positive is money out (an expense), negative money in. */
export interface TransactionRowValues {
  date: string;
  /** The amount as the file has it (not yet signed), as plain decimal text. */
  amount: string;
  /** Signed per signage_convention or amount_type_strategy, in minor units of `currency`. */
  amount_cents: bigint;
  currency: string;
  /** True when the currency came from the file (Sure then keeps it; else the mapped account's currency wins). */
  currency_from_file: boolean;
  name: string;
  /** The category's name, "" for none (the key of its mapping). */
  category: string;
  /** Tag names, blank ones left out. */
  tags: string[];
  notes: string | null;
  /** The account's name, "" for none (the key of its mapping; unused when the import names an account). */
  account: string;
}

/** A trade row: a buy has a positive quantity and a positive (outflow) amount. */
export interface TradeRowValues {
  date: string;
  ticker: string;
  exchange_operating_mic: string | null;
  /** Signed per signage_convention, at most 8 decimals (the column's scale). */
  qty: string;
  /** Unit price, at most 10 decimals. */
  price: string;
  currency: string;
  /** qty x price in minor units, rounded once half away from zero. */
  amount_cents: bigint;
  name: string;
  account: string;
  investment_activity_label: "Buy" | "Sell" | null;
}

export interface AccountRowValues {
  /** The file's account type (the key of its account-type mapping), "" for none. */
  account_type: string;
  name: string;
  balance: string;
  balance_cents: bigint;
  currency: string;
  /** The opening balance's day; null: the default Sure's OpeningBalanceManager picks. */
  balance_date: string | null;
}

export interface CategoryRowValues {
  name: string;
  color: string | null;
  parent: string | null;
  icon: string | null;
  classification: "income" | "expense" | null;
}

export interface MerchantRowValues {
  name: string;
  color: string | null;
  website_url: string | null;
}

export interface RuleRowValues {
  /** Null: a new rule every time (Sure finds a named rule and replaces its conditions and actions). */
  name: string | null;
  resource_type: "transaction";
  active: boolean;
  effective_date: string | null;
  /** The JSON arrays as written; names of categories, merchants and tags still to be resolved to ids. */
  conditions: Record<string, unknown>[];
  actions: Record<string, unknown>[];
}

export interface RowValuesByType {
  TransactionImport: TransactionRowValues;
  MintImport: TransactionRowValues;
  YnabImport: TransactionRowValues;
  ActualImport: TransactionRowValues;
  TradeImport: TradeRowValues;
  AccountImport: AccountRowValues;
  CategoryImport: CategoryRowValues;
  MerchantImport: MerchantRowValues;
  RuleImport: RuleRowValues;
}

/** Sure's row columns, none set: each type fills those it reads. */
export function emptyFields(): ImportRowFields {
  return {
    account: null,
    date: null,
    qty: null,
    ticker: null,
    exchange_operating_mic: null,
    price: null,
    amount: null,
    currency: null,
    name: null,
    category: null,
    tags: null,
    entity_type: null,
    notes: null,
    active: null,
    effective_date: null,
    conditions: null,
    actions: null,
  };
}
