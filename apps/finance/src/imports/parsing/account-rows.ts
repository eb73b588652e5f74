import { checkCurrency, checkDate, checkLength, checkMinorUnits, checkRequired, readNumber } from "./row-checks";
import type { AccountRowValues, CandidateRow, RowContext, RowError, SourceRow } from "./row-types";
import { quietNumber, readSureCells, sureFieldsOf } from "./sure-cells";

const LIMITS = { name: 200, accountType: 255 } as const;

/**
 * An AccountImport row: name and balance required (Sure reads the balance from "amount" or
 * "balance"), the balance as written (no signage: Sure takes row.amount as it is), the opening
 * balance's date optional but in the import's format when given.
 */
export function accountRow(row: SourceRow, context: RowContext): CandidateRow<AccountRowValues> {
  const cells = readSureCells(row, context, "AccountImport");
  const errors: RowError[] = [];
  const balance = readNumber(cells.amount, context, "amount", "Amount", errors);
  const fields = sureFieldsOf(cells, { amount: balance, qty: quietNumber(cells.qty, context), price: quietNumber(cells.price, context) });

  // A row without a name is named "Imported item", as in Sure (so the name is never blank here).
  checkLength(cells.name, LIMITS.name, "name", "Name", errors);
  if (!errors.some((error) => error.field === "amount")) checkRequired(balance, "amount", "Amount", errors);
  const date = checkDate(cells.date, context, errors);
  const currency = checkCurrency(cells.currency, errors);
  const cents = currency !== null && balance !== "" ? checkMinorUnits(balance, currency, "amount", "Amount", errors) : null;
  checkLength(cells.entity_type, LIMITS.accountType, "entity_type", "Entity type", errors);

  if (errors.length > 0 || currency === null || cents === null) return { row_number: row.rowNumber, fields, errors, values: null };
  return {
    row_number: row.rowNumber,
    fields,
    errors,
    values: { account_type: cells.entity_type, name: cells.name, balance, balance_cents: cents, currency, balance_date: date },
  };
}
