import { fieldHeaders } from "./field-headers";
import { cellOf } from "./headers";
import { readNumber } from "./row-checks";
import type { RowContext, RowError, SourceRow } from "./row-types";

const magnitude = (decimal: string) => (decimal.startsWith("-") ? decimal.slice(1) : decimal);
const isZero = (decimal: string) => !/[1-9]/.test(decimal);

/**
 * The amount of a row of a debit_credit_columns import (Hearth's: most UK and US bank CSVs),
 * as a decimal with money in positive: the debit cell's size as money out, or the credit cell's
 * as money in, each read in the file's number format. The column says which way the money
 * went, so a sign written in it is not counted twice ("-45.00" under Debit is 45 out). Exactly
 * one of the two holds an amount: a zero beside an amount counts as empty, and a row with
 * neither, or with two amounts, is an error that says so ("" answered).
 */
export function debitCreditAmount(row: SourceRow, context: RowContext, errors: RowError[]): string {
  const read = (field: "debit" | "credit", label: string) =>
    readNumber(cellOf(row.record, row.index, fieldHeaders(field, context.config, "TransactionImport")) ?? "", context, field, label, errors);
  const debit = read("debit", "Debit");
  const credit = read("credit", "Credit");
  if (errors.some((error) => error.field === "debit" || error.field === "credit")) return "";
  if (debit === "" && credit === "") {
    errors.push({ field: "amount", message: "Debit or Credit is required: the row has an amount in neither" });
    return "";
  }
  if (debit !== "" && credit !== "" && !isZero(debit) && !isZero(credit)) {
    errors.push({ field: "amount", message: "Debit and Credit both hold an amount: a row takes one of the two" });
    return "";
  }
  const out = debit !== "" && (credit === "" || !isZero(debit));
  return out ? (isZero(debit) ? magnitude(debit) : `-${magnitude(debit)}`) : magnitude(credit);
}
