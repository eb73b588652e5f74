import { debitCreditAmount } from "./debit-credit";
import { checkCurrency, checkDate, checkLength, checkMinorUnits, checkRequired, readNumber } from "./row-checks";
import type { CandidateRow, RowContext, RowError, SourceRow, TransactionRowValues } from "./row-types";
import { signedTransactionAmount } from "./signage";
import { quietNumber, readSureCells, sureFieldsOf, type SureCells } from "./sure-cells";
import { tagsListOf } from "./tags";

/** Hearth's limits on what a transaction row becomes (entry name, notes, category, tag and account names). */
const LIMITS = { name: 500, notes: 10_000, category: 100, tag: 100, tags: 100, account: 200, entityType: 255 } as const;

/**
 * A TransactionImport row: Sure's generate_rows_from_csv and Import::Row validations (date and
 * amount required, the date in the import's format, a known currency), plus the limits Hearth's
 * ledger keeps, each error naming its field.
 */
export function transactionRow(row: SourceRow, context: RowContext): CandidateRow<TransactionRowValues> {
  const cells = readSureCells(row, context, "TransactionImport");
  const errors: RowError[] = [];
  const twoColumns = context.config.amount_type_strategy === "debit_credit_columns";
  const amount = twoColumns ? debitCreditAmount(row, context, errors) : readNumber(cells.amount, context, "amount", "Amount", errors);
  return checkedTransactionRow(row, context, { cells, amount, errors, amountRequired: !twoColumns });
}

/** A transaction row's cells as one type reads them, before the checks every type shares. */
export interface TransactionCells {
  cells: SureCells;
  /** The amount as plain decimal text, signed as the file's convention has it ("" when none). */
  amount: string;
  /** Errors found reading the cells. */
  errors: RowError[];
  /** Report a blank amount as "Amount is required" (a reader that said why itself does not). */
  amountRequired: boolean;
}

/** The checks and values every transaction CSV type shares (TransactionImport, Mint, YNAB, Actual). */
export function checkedTransactionRow(
  row: SourceRow,
  context: RowContext,
  { cells, amount, errors, amountRequired }: TransactionCells,
): CandidateRow<TransactionRowValues> {
  const fields = sureFieldsOf(cells, { amount, qty: quietNumber(cells.qty, context), price: quietNumber(cells.price, context) });

  const date = checkDate(cells.date, context, errors);
  checkRequired(cells.date, "date", "Date", errors);
  if (amountRequired && !errors.some((error) => error.field === "amount")) checkRequired(amount, "amount", "Amount", errors);
  const currency = checkCurrency(cells.currency, errors);
  const cents = currency !== null && amount !== "" ? checkMinorUnits(amount, currency, "amount", "Amount", errors) : null;

  checkLength(cells.name, LIMITS.name, "name", "Name", errors);
  checkLength(cells.notes, LIMITS.notes, "notes", "Notes", errors);
  checkLength(cells.category, LIMITS.category, "category", "Category", errors);
  checkLength(cells.account, LIMITS.account, "account", "Account", errors);
  checkLength(cells.entity_type, LIMITS.entityType, "entity_type", "Entity type", errors);
  const tags = tagsListOf(cells.tags).filter((tag) => tag !== "");
  if (tags.length > LIMITS.tags) errors.push({ field: "tags", message: `Tags has ${tags.length} names (maximum is ${LIMITS.tags})` });
  const longTag = tags.find((tag) => tag.length > LIMITS.tag);
  if (longTag !== undefined) errors.push({ field: "tags", message: `Tag "${longTag.slice(0, 40)}..." is too long (maximum is ${LIMITS.tag} characters)` });

  if (errors.length > 0 || date === null || currency === null || cents === null) return { row_number: row.rowNumber, fields, errors, values: null };
  return {
    row_number: row.rowNumber,
    fields,
    errors,
    values: {
      date,
      amount,
      amount_cents: signedTransactionAmount(cents, cells.entity_type, context.config),
      currency,
      currency_from_file: cells.currencyFromFile,
      name: cells.name,
      category: cells.category,
      tags: [...new Set(tags)],
      notes: cells.notes === "" ? null : cells.notes,
      account: cells.account,
    },
  };
}
