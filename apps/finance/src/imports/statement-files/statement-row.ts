import { yearsBefore } from "../../ledger/dates";
import { checkCurrency, checkLength, checkMinorUnits } from "../parsing/row-checks";
import { emptyFields, type CandidateRow, type RowError, type TransactionRowValues } from "../parsing/row-types";

/** A transaction row of an OFX or QIF file: a TransactionImport row, plus what only these files give. */
export interface StatementRowValues extends TransactionRowValues {
  /** OFX's FITID: the bank's id of the transaction, unique within the account (QIF has none). */
  external_id?: string;
  /** QIF's "Parent:Child" category: the parent the category is made under (Sure's CategoryMapping). */
  category_parent?: string;
}

/** What a reader found for one part of a transaction: the value, or why it could not be read. */
export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** One transaction as an OFX or QIF reader found it, before Sure's row checks. */
export interface StatementTransaction {
  rowNumber: number;
  /** The date as written ("" when the file has none) and the ISO date read from it. */
  dateText: string;
  date: Read<string> | null;
  /** The amount as written, and read as plain decimal text signed as the file signs it (money in positive). */
  amountText: string;
  amount: Read<string> | null;
  currency: string;
  currencyFromFile: boolean;
  name: string;
  notes: string;
  /** The category as written (QIF's L field), and the name it is filed under ("" for none). */
  categoryText: string;
  category: string;
  categoryParent: string | null;
  tags: string[];
  /** OFX's TRNTYPE, shown in the row's entity_type (nothing reads it). */
  entityType: string;
  externalId: string | null;
  /** The name of the account the file puts it in (QIF's !Account), "" for the import's own. */
  account: string;
}

/** Hearth's limits on what a transaction row becomes, as TransactionImport rows (parsing/transaction-rows.ts). */
const LIMITS = { name: 500, notes: 10_000, category: 100, tag: 100, tags: 100, externalId: 255, account: 200 } as const;
/** Sure's Entry.min_supported_date: 30 years back. */
const SUPPORTED_YEARS = 30;

/**
 * A file's transaction as an import row, checked as Sure's Import::Row checks a TransactionImport
 * row (date and amount required, the date between 30 years ago and today, a known currency,
 * no more decimals than it has) and within Hearth's limits. Both formats write money out as a
 * negative amount, so the sign is turned to Sure's: positive is money out.
 */
export function statementRow(transaction: StatementTransaction, today: string): CandidateRow<StatementRowValues> {
  const errors: RowError[] = [];
  const date = readDate(transaction, today, errors);
  if (transaction.amount === null) errors.push({ field: "amount", message: "Amount is required" });
  else if (!transaction.amount.ok) errors.push({ field: "amount", message: transaction.amount.message });
  const decimal = transaction.amount?.ok ? transaction.amount.value : null;
  const currency = checkCurrency(transaction.currency, errors);
  const units = currency !== null && decimal !== null ? checkMinorUnits(decimal, currency, "amount", "Amount", errors) : null;

  checkLength(transaction.name, LIMITS.name, "name", "Name", errors);
  checkLength(transaction.notes, LIMITS.notes, "notes", "Notes", errors);
  checkLength(transaction.category, LIMITS.category, "category", "Category", errors);
  if (transaction.categoryParent !== null) checkLength(transaction.categoryParent, LIMITS.category, "category", "Parent category", errors);
  if (transaction.tags.length > LIMITS.tags) errors.push({ field: "tags", message: `Tags has ${transaction.tags.length} names (maximum is ${LIMITS.tags})` });
  const longTag = transaction.tags.find((tag) => tag.length > LIMITS.tag);
  if (longTag !== undefined) errors.push({ field: "tags", message: `Tag "${longTag.slice(0, 40)}..." is too long (maximum is ${LIMITS.tag} characters)` });
  if (transaction.externalId !== null) checkLength(transaction.externalId, LIMITS.externalId, "external_id", "FITID", errors);
  // An account name (QIF's !Account N) is an account's name: within the accounts API's limit.
  const account = transaction.account.trim();
  checkLength(account, LIMITS.account, "account", "Account", errors);

  const fields = {
    ...emptyFields(),
    date: transaction.dateText,
    amount: decimal ?? transaction.amountText,
    currency: transaction.currency,
    name: transaction.name,
    category: transaction.categoryText,
    tags: transaction.tags.join("|"),
    entity_type: transaction.entityType,
    notes: transaction.notes,
    account: account === "" ? null : account,
  };
  if (errors.length > 0 || date === null || decimal === null || currency === null || units === null) {
    return { row_number: transaction.rowNumber, fields, errors, values: null };
  }
  return {
    row_number: transaction.rowNumber,
    fields,
    errors,
    values: {
      date,
      amount: decimal,
      amount_cents: -units,
      currency,
      currency_from_file: transaction.currencyFromFile,
      name: transaction.name,
      category: transaction.category,
      tags: [...new Set(transaction.tags)],
      notes: transaction.notes === "" ? null : transaction.notes,
      account,
      ...(transaction.externalId !== null ? { external_id: transaction.externalId } : {}),
      ...(transaction.categoryParent !== null ? { category_parent: transaction.categoryParent } : {}),
    },
  };
}

/** Sure's date_valid: required, readable, and between 30 years ago and today. */
function readDate(transaction: StatementTransaction, today: string, errors: RowError[]): string | null {
  if (transaction.date === null) {
    errors.push({ field: "date", message: "Date is required" });
    return null;
  }
  if (!transaction.date.ok) {
    errors.push({ field: "date", message: transaction.date.message });
    return null;
  }
  const earliest = yearsBefore(today, SUPPORTED_YEARS);
  if (transaction.date.value < earliest || transaction.date.value > today) {
    errors.push({ field: "date", message: `Date must be between ${earliest} and ${today}` });
    return null;
  }
  return transaction.date.value;
}
