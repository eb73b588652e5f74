import { decimalOf, minorUnitDigits } from "@hearth/contracts";
import { fieldHeaders, YNAB_FLOW_HEADERS } from "./field-headers";
import { cellOf, headerPosition } from "./headers";
import { checkMinorUnits, readNumber } from "./row-checks";
import type { CandidateRow, RowContext, RowError, SourceRow, TransactionRowValues } from "./row-types";
import { DEFAULT_ROW_NAME, readSureCells } from "./sure-cells";
import { checkedTransactionRow } from "./transaction-rows";

// The budgeting apps' exports Sure reads as transactions (app/models/mint_import.rb,
// ynab_import.rb, actual_import.rb), their headers filled in by IMPORT_TYPE_DEFAULTS.

const cell = (row: SourceRow, headers: readonly (string | null)[]) => cellOf(row.record, row.index, headers) ?? "";

/** "Group: Category", or whichever of the two is there (Sure's join_category). */
function joinCategory(group: string, category: string): string {
  const [g, c] = [group.trim(), category.trim()];
  if (g === "") return c;
  if (c === "") return g;
  return `${g}: ${c}`;
}

/** Negates plain decimal text ("-" added or taken off). */
const negated = (decimal: string) => (decimal === "" ? "" : decimal.startsWith("-") ? decimal.slice(1) : `-${decimal}`);

/**
 * A Mint export's row: amounts are sizes, the Transaction Type says which way ("credit" is money
 * in, anything else money out: MintImport#signed_csv_amount), tags from Labels, the currency from
 * its column.
 */
export function mintRow(row: SourceRow, context: RowContext): CandidateRow<TransactionRowValues> {
  const cells = readSureCells(row, context, "MintImport");
  const errors: RowError[] = [];
  const amount = readNumber(cells.amount, context, "amount", "Amount", errors);
  const signed = cells.entity_type === "credit" ? amount : negated(amount);
  return checkedTransactionRow(row, context, { cells, amount: signed, errors, amountRequired: true });
}

/** A name for a row without a payee: its memo or notes, then Sure's default (YNAB's and Actual's reconciliation rows have none). */
function payeeOrNote(row: SourceRow, context: RowContext, type: "YnabImport" | "ActualImport"): string {
  const payee = cell(row, fieldHeaders("name", context.config, type));
  if (payee.trim() !== "") return payee;
  const note = cell(row, fieldHeaders("notes", context.config, type));
  return note.trim() !== "" ? note : DEFAULT_ROW_NAME;
}

/**
 * The money of a YNAB row: a signed Amount when the file has one, else Inflow less Outflow (each
 * a size: "-25.00" under Outflow is still 25 out), a blank flow counted as nothing, in minor units
 * of the row's currency; "" when the file has none of these columns, so the row is refused rather
 * than written as zero.
 */
function ynabAmount(row: SourceRow, context: RowContext, errors: RowError[]): string {
  const explicit = cell(row, [context.config.amount_col_label ?? "Amount"]);
  if (explicit !== "") return readNumber(explicit, context, "amount", "Amount", errors);
  const [outflowHeader, inflowHeader] = YNAB_FLOW_HEADERS;
  if (headerPosition(row.index, [outflowHeader, inflowHeader]) === undefined) return "";
  const size = (header: string, label: string): bigint | null => {
    const text = cell(row, [header]);
    if (text === "") return 0n;
    const decimal = readNumber(text, context, "amount", label, errors);
    const units = decimal === "" ? null : checkMinorUnits(decimal, context.defaultCurrency, "amount", label, errors);
    return units === null ? null : units < 0n ? -units : units;
  };
  const inflow = size(inflowHeader, "Inflow");
  const outflow = size(outflowHeader, "Outflow");
  if (inflow === null || outflow === null) return "";
  return decimalOf(inflow - outflow, minorUnitDigits(context.defaultCurrency));
}

/** YNAB's category: "Category Group/Category", else the group and category, else YNAB 4's master and sub category (YnabImport#combined_category). */
function ynabCategory(row: SourceRow, context: RowContext): string {
  const combined = cell(row, ["Category Group/Category"]);
  if (combined.trim() !== "") return combined.trim();
  const category = cell(row, fieldHeaders("category", context.config, "YnabImport"));
  const group = cell(row, ["Category Group"]);
  if (group.trim() !== "") return joinCategory(group, category);
  const master = cell(row, ["Master Category"]);
  const sub = cell(row, ["Sub Category"]);
  if (master.trim() !== "" || sub.trim() !== "") return joinCategory(master, sub);
  return category.trim();
}

/** A YNAB register export's row (ynab_import_test.rb: an outflow of 1,500 an expense, an inflow of 2,500 income). */
export function ynabRow(row: SourceRow, context: RowContext): CandidateRow<TransactionRowValues> {
  const sure = readSureCells(row, context, "YnabImport");
  const errors: RowError[] = [];
  const amount = ynabAmount(row, context, errors);
  // YNAB has no currency or tags column: the account's or family's currency, no tags.
  const cells = { ...sure, name: payeeOrNote(row, context, "YnabImport"), category: ynabCategory(row, context), tags: "", currency: context.defaultCurrency };
  return checkedTransactionRow(row, context, { cells: { ...cells, currencyFromFile: false }, amount, errors, amountRequired: true });
}

/** An Actual Budget export's row: a signed Amount, "Category_Group: Category", a blank payee named by its notes (actual_import_test.rb). */
export function actualRow(row: SourceRow, context: RowContext): CandidateRow<TransactionRowValues> {
  const sure = readSureCells(row, context, "ActualImport");
  const errors: RowError[] = [];
  const amount = readNumber(sure.amount, context, "amount", "Amount", errors);
  const category = joinCategory(cell(row, ["Category_Group"]), cell(row, fieldHeaders("category", context.config, "ActualImport")));
  const cells = { ...sure, name: payeeOrNote(row, context, "ActualImport"), category, tags: "", currency: context.defaultCurrency, currencyFromFile: false };
  return checkedTransactionRow(row, context, { cells, amount, errors, amountRequired: true });
}
