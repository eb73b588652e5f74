import type { CsvImportType, ImportConfig } from "@hearth/contracts";

/** The row fields Sure's generate_rows_from_csv fills for transaction, trade and account imports. */
export type SureRowField =
  | "account"
  | "date"
  | "qty"
  | "ticker"
  | "exchange_operating_mic"
  | "price"
  | "amount"
  | "currency"
  | "name"
  | "category"
  | "tags"
  | "entity_type"
  | "notes"
  | "debit"
  | "credit";

/**
 * The headers each field is read from, in order: the configured label, then the usual names
 * (Sure's csv_value aliases). Unlike Sure, a field without a label is still read from its usual
 * header, as Sure's own preflight assumes ("date" when no date_col_label is given). Account
 * imports also read the date from "Balance Date", the header of Sure's own template.
 */
export function fieldHeaders(field: SureRowField, config: ImportConfig, type: CsvImportType): (string | null)[] {
  switch (field) {
    case "account":
      return [config.account_col_label, "account", "account_name"];
    case "date":
      return type === "AccountImport" ? [config.date_col_label, "date", "balance_date"] : [config.date_col_label, "date"];
    case "qty":
      return [config.qty_col_label, "qty", "quantity"];
    case "ticker":
      return [config.ticker_col_label, "ticker"];
    case "exchange_operating_mic":
      return [config.exchange_operating_mic_col_label, "exchange_operating_mic"];
    case "price":
      return [config.price_col_label, "price"];
    case "amount":
      return [config.amount_col_label, "amount", "balance"];
    case "currency":
      return [config.currency_col_label, "currency"];
    case "name":
      return [config.name_col_label, "name"];
    case "category":
      return [config.category_col_label, "category"];
    case "tags":
      return [config.tags_col_label, "tags"];
    case "entity_type":
      return [config.entity_type_col_label, "entity_type", "account_type", "type"];
    case "notes":
      return [config.notes_col_label, "notes"];
    // Hearth's debit_credit_columns: the headers UK and US banks write over money out and money in.
    case "debit":
      return [config.debit_col_label, "debit", "debit_amount", "paid_out", "money_out", "withdrawals", "withdrawal"];
    case "credit":
      return [config.credit_col_label, "credit", "credit_amount", "paid_in", "money_in", "deposits", "deposit"];
  }
}

/** Category, merchant and rule imports read fixed headers (Sure's header_for), not labels. */
export const CATEGORY_HEADERS = {
  name: ["name"],
  color: ["color"],
  parent: ["parent_category", "parent category"],
  icon: ["lucide_icon", "lucide icon", "icon"],
  /** Hearth keeps a category's classification; Sure's CategoryImport reads none. */
  classification: ["classification"],
} as const;

export const MERCHANT_HEADERS = { name: ["name"], color: ["color"], website: ["website_url", "website url", "website"] } as const;

export const RULE_HEADERS = {
  name: ["name"],
  resource_type: ["resource_type"],
  active: ["active"],
  effective_date: ["effective_date"],
  conditions: ["conditions"],
  actions: ["actions"],
} as const;

/** YNAB's money-out and money-in columns (ynab_import.rb OUTFLOW_COLUMN, INFLOW_COLUMN). */
export const YNAB_FLOW_HEADERS = ["Outflow", "Inflow"] as const;

export interface RequiredColumn {
  /** Sure's required_column_keys entry. */
  key: string;
  /** The header preflight names: the configured label, else the key (Sure's required_header_labels). */
  label: string;
  /** The headers that satisfy it. */
  headers: readonly (string | null)[];
}

function sureField(key: SureRowField, config: ImportConfig, type: CsvImportType): RequiredColumn {
  const headers = fieldHeaders(key, config, type);
  return { key, label: headers[0] ?? key, headers };
}

/** The columns a type cannot do without (Sure's required_column_keys), each with the headers that provide it. */
export function requiredColumnsOf(type: CsvImportType, config: ImportConfig): RequiredColumn[] {
  switch (type) {
    case "TransactionImport":
      return config.amount_type_strategy === "debit_credit_columns"
        ? [sureField("date", config, type), sureField("debit", config, type), sureField("credit", config, type)]
        : [sureField("date", config, type), sureField("amount", config, type)];
    case "MintImport":
    case "ActualImport":
      return [sureField("date", config, type), sureField("amount", config, type)];
    case "YnabImport": {
      // YNAB writes Outflow and Inflow; a single signed Amount, when there, wins (ynab_import.rb).
      const amount = sureField("amount", config, type);
      return [sureField("date", config, type), { ...amount, headers: [config.amount_col_label, "amount", ...YNAB_FLOW_HEADERS] }];
    }
    case "TradeImport":
      return (["date", "ticker", "qty", "price"] as const).map((key) => sureField(key, config, type));
    case "AccountImport":
      return [sureField("name", config, type), sureField("amount", config, type)];
    case "CategoryImport":
      return [{ key: "name", label: "name", headers: CATEGORY_HEADERS.name }];
    case "MerchantImport":
      return [{ key: "name", label: "name", headers: MERCHANT_HEADERS.name }];
    case "RuleImport":
      return (["resource_type", "conditions", "actions"] as const).map((key) => ({ key, label: key, headers: RULE_HEADERS[key] }));
  }
}
