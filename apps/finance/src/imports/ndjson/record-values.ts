import type { AccountType } from "@hearth/contracts";
import type { SureAccountableType } from "./accountables";
import type { SureRecordType } from "./record-types";

// The records of a Sure NDJSON file as typed values. Ids named `*_id` and `source_id` are the
// exporter's ids (source ids): they link records of the same file to each other and mean nothing
// in Hearth's database. Amounts are integer minor units of the record's `currency`; quantities
// and unit prices are plain decimal text at their columns' scale.

/** Where a record came from: its line in the file (1 for the first). */
interface FromLine {
  line: number;
}

export interface SureAccountValues extends FromLine {
  source_id: string;
  name: string;
  accountable_type: SureAccountableType;
  /** Hearth's account type for the accountable class. */
  account_type: AccountType;
  /** The accountable's subtype, else the account's (Sure's preflight reads them in that order). */
  subtype: string | null;
  balance_cents: bigint;
  /** Sure: the cash balance, else the balance. */
  cash_balance_cents: bigint;
  currency: string;
  institution_name: string | null;
  institution_domain: string | null;
  notes: string | null;
  /** Sure's importable_account_status: anything but disabled or draft is active. */
  status: "active" | "disabled" | "draft";
  /** No opening balance is made from `balance` (skip_opening_balance_import or authoritative_balance_history). */
  skip_opening_balance: boolean;
  /** opening_balance_date (or opening_balance_on): the day of the opening balance Sure makes. */
  opening_balance_date: string | null;
}

/** A day's balance of an account (Sure's raw balance history); each figure null where the file leaves it out. */
export interface SureBalanceValues extends FromLine {
  source_id: string | null;
  account_id: string;
  date: string;
  currency: string;
  balance_cents: bigint;
  cash_balance_cents: bigint | null;
  start_cash_balance_cents: bigint | null;
  start_non_cash_balance_cents: bigint | null;
  cash_inflows_cents: bigint | null;
  cash_outflows_cents: bigint | null;
  non_cash_inflows_cents: bigint | null;
  non_cash_outflows_cents: bigint | null;
  net_market_flows_cents: bigint | null;
  cash_adjustments_cents: bigint | null;
  non_cash_adjustments_cents: bigint | null;
  /** Sure's balance_flows_factor_for: -1 or 1 (anything else is 1); null when the file has none. */
  flows_factor: -1 | 1 | null;
}

export interface SureCategoryValues extends FromLine {
  source_id: string;
  name: string;
  color: string | null;
  parent_id: string | null;
  /** classification_unused, else classification, else expense. */
  classification: "income" | "expense";
  lucide_icon: string | null;
}

export interface SureTagValues extends FromLine {
  source_id: string;
  name: string;
  color: string | null;
}

export interface SureMerchantValues extends FromLine {
  source_id: string;
  name: string;
  color: string | null;
  logo_url: string | null;
  website_url: string | null;
}

export interface SureRecurringTransactionValues extends FromLine {
  source_id: string;
  account_id: string | null;
  merchant_id: string | null;
  amount_cents: bigint;
  /** The record's currency, else the family's (Sure does not look at the account). */
  currency: string;
  expected_day_of_month: number;
  last_occurrence_date: string;
  next_expected_date: string;
  status: "active" | "inactive";
  occurrence_count: number;
  name: string | null;
  manual: boolean;
  expected_amount_min_cents: bigint | null;
  expected_amount_max_cents: bigint | null;
  expected_amount_avg_cents: bigint | null;
}

export type SureTransactionKind = "standard" | "funds_movement" | "cc_payment" | "loan_payment" | "one_time" | "investment_contribution";

/** One line of a split transaction (Sure's split_lines, splitLines or splits). */
export interface SureSplitLineValues {
  /** The split child's transaction id: transfers may point at it. */
  source_id: string | null;
  amount_cents: bigint;
  /** name, memo or description, else "Imported split". */
  name: string;
  category_id: string | null;
  /** null with merchant_id_provided false: the split keeps the parent's merchant. */
  merchant_id: string | null;
  merchant_id_provided: boolean;
  notes: string | null;
  excluded: boolean;
  /** null: the split takes the parent's tags (the file has no tag_ids for it). */
  tag_ids: string[] | null;
  kind: SureTransactionKind | null;
}

export interface SureTransactionValues extends FromLine {
  source_id: string;
  account_id: string;
  date: string;
  /** Sure's sign: positive is money out, negative money in. */
  amount_cents: bigint;
  /** The record's currency, else its account's, else the family's. */
  currency: string;
  name: string;
  notes: string | null;
  excluded: boolean;
  category_id: string | null;
  merchant_id: string | null;
  tag_ids: string[];
  kind: SureTransactionKind;
  /** Empty unless the transaction is split; the lines' amounts sum to amount_cents. */
  split_lines: SureSplitLineValues[];
}

export interface SureTransferValues extends FromLine {
  source_id: string | null;
  inflow_transaction_id: string;
  outflow_transaction_id: string;
  /** Sure's transfer_status_for: anything unknown is pending. */
  status: "pending" | "confirmed";
  notes: string | null;
}

export interface SureRejectedTransferValues extends FromLine {
  source_id: string | null;
  inflow_transaction_id: string;
  outflow_transaction_id: string;
}

/** The security a trade or holding names: found by ticker and exchange when imported. */
export interface SureSecurityValues {
  /** The exporter's security id (Sure maps it to the security it finds or makes). */
  security_id: string | null;
  /** Upper case, as Sure looks securities up. */
  ticker: string;
  security_name: string | null;
  exchange_operating_mic: string | null;
}

export interface SureTradeValues extends FromLine, SureSecurityValues {
  source_id: string | null;
  account_id: string;
  date: string;
  /** Signed: a sell is negative. At most 8 decimals. */
  qty: string;
  /** Unit price, at most 10 decimals. */
  price: string;
  /** The entry's amount (positive for a buy), rounded to the currency. */
  amount_cents: bigint;
  currency: string;
}

export interface SureHoldingValues extends FromLine, SureSecurityValues {
  source_id: string | null;
  account_id: string;
  date: string;
  exchange_mic: string | null;
  exchange_acronym: string | null;
  country_code: string | null;
  website_url: string | null;
  /** Sure's security kind (unknown is standard). */
  security_kind: "standard" | "cash";
  qty: string;
  /** Unit price, at most 4 decimals. */
  price: string;
  amount_cents: bigint;
  currency: string;
  /** Average cost per unit, at most 4 decimals. */
  cost_basis: string | null;
  cost_basis_source: "manual" | "calculated" | "provider" | null;
  cost_basis_locked: boolean;
  security_locked: boolean;
}

export interface SureValuationValues extends FromLine {
  source_id: string | null;
  account_id: string;
  date: string;
  amount_cents: bigint;
  currency: string;
  /** name, else "Valuation". */
  name: string;
  /** Sure's valuation_kind_for: anything unknown is a reconciliation. */
  kind: "reconciliation" | "opening_anchor" | "current_anchor";
}

export interface SureBudgetValues extends FromLine {
  source_id: string;
  start_date: string;
  end_date: string;
  budgeted_spending_cents: bigint | null;
  expected_income_cents: bigint | null;
  currency: string;
}

export interface SureBudgetCategoryValues extends FromLine {
  source_id: string | null;
  budget_id: string;
  category_id: string;
  /** Sure: nil.to_d is 0. */
  budgeted_spending_cents: bigint;
  /** The record's currency, else its budget's. */
  currency: string;
}

/** A category, merchant or tag an operand named when exported (Sure's value_ref). */
export interface SureValueRef {
  type: string | null;
  id: string | null;
  name: string | null;
}

/** A rule operand as written: text, a boolean, or none (JSON numbers arrive as their text). */
export type SureOperand = string | boolean | null;

export interface SureRuleConditionValues {
  condition_type: string;
  operator: string;
  value: SureOperand;
  value_ref: SureValueRef | null;
  /** Sure's rule_operand_value: the value, or the ref's name where the value is absent or a stale UUID. */
  operand: SureOperand;
  sub_conditions: SureRuleConditionValues[];
}

export interface SureRuleActionValues {
  action_type: string;
  value: SureOperand;
  value_ref: SureValueRef | null;
  operand: SureOperand;
}

export interface SureRuleValues extends FromLine {
  source_id: string;
  name: string | null;
  resource_type: "transaction";
  active: boolean;
  effective_date: string | null;
  conditions: SureRuleConditionValues[];
  actions: SureRuleActionValues[];
}

export interface SureRecordValues {
  Account: SureAccountValues;
  Balance: SureBalanceValues;
  Category: SureCategoryValues;
  Tag: SureTagValues;
  Merchant: SureMerchantValues;
  RecurringTransaction: SureRecurringTransactionValues;
  Transaction: SureTransactionValues;
  Transfer: SureTransferValues;
  RejectedTransfer: SureRejectedTransferValues;
  Trade: SureTradeValues;
  Holding: SureHoldingValues;
  Valuation: SureValuationValues;
  Budget: SureBudgetValues;
  BudgetCategory: SureBudgetCategoryValues;
  Rule: SureRuleValues;
}

/** The file's records by type; iterate SURE_RECORD_TYPES for the order an import needs. */
export type SureNdjsonRecords = { [T in SureRecordType]: SureRecordValues[T][] };
