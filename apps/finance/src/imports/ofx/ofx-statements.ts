import { StatementFileError } from "../statement-files/statement-file-error";
import { walkOfxElements } from "./ofx-elements";
import { readOfxMarkup } from "./ofx-markup";

/** A transaction's values by element name ("TRNAMT"); inside an aggregate of it by path ("PAYEE.NAME", "CURRENCY.CURSYM"). */
export type OfxTransaction = ReadonlyMap<string, string>;

/** One bank (STMTRS) or credit card (CCSTMTRS) statement. */
export interface OfxStatement {
  /** CURDEF: the currency of its amounts. */
  currency: string | null;
  /** BANKACCTFROM's or CCACCTFROM's ACCTID. */
  accountId: string | null;
  transactions: OfxTransaction[];
}

export interface OfxDocument {
  statements: OfxStatement[];
  /** Investment statements (INVSTMTRS), which are not read. */
  investmentStatements: number;
  /** Every STMTTRN of the statements; only the first `maxTransactions` are kept. */
  transactionCount: number;
}

const STATEMENTS = new Set(["STMTRS", "CCSTMTRS"]);
const ACCOUNTS = new Set(["BANKACCTFROM", "CCACCTFROM"]);
/** Aggregates of a STMTTRN whose values a transaction keeps, by path. */
const TRANSACTION_PARTS = new Set(["PAYEE", "CURRENCY", "ORIGCURRENCY"]);

/**
 * The bank and credit card statements of an OFX file (1.x SGML or 2.x XML) whose <OFX> element
 * starts at `start`, with their transactions: the first value of each element counts. A
 * STMTTRN left unclosed (its values would fall to the list around it) makes the file unreadable
 * rather than lose a transaction.
 */
export async function readOfxDocument(text: string, start: number, maxTransactions: number, signal?: AbortSignal): Promise<OfxDocument> {
  const document: OfxDocument = { statements: [], investmentStatements: 0, transactionCount: 0 };
  let statement: OfxStatement | null = null;
  let transaction: Map<string, string> | null = null;
  let unclosedTransactions = 0;
  const keep = (map: Map<string, string>, key: string, value: string) => {
    if (!map.has(key)) map.set(key, value);
  };

  const markup = await readOfxMarkup(text, start, undefined, signal);
  await walkOfxElements(
    markup,
    {
      open(name) {
        if (STATEMENTS.has(name)) {
          statement = { currency: null, accountId: null, transactions: [] };
          document.statements.push(statement);
          transaction = null;
        } else if (name === "INVSTMTRS") {
          document.investmentStatements++;
        } else if (name === "STMTTRN" && statement !== null) {
          transaction = new Map();
        }
      },
      value(name, value, parent, grandparent) {
        // A STMTTRN holding a value was never closed (an empty one, opened and closed, comes with its transaction open).
        if (name === "STMTTRN" && transaction === null) unclosedTransactions++;
        if (transaction !== null) {
          if (parent === "STMTTRN") keep(transaction, name, value);
          else if (parent !== undefined && TRANSACTION_PARTS.has(parent) && grandparent === "STMTTRN") keep(transaction, `${parent}.${name}`, value);
        } else if (statement !== null) {
          if (value === "" || parent === undefined) return;
          if (name === "CURDEF" && STATEMENTS.has(parent)) statement.currency ??= value;
          if (name === "ACCTID" && ACCOUNTS.has(parent)) statement.accountId ??= value;
        }
      },
      close(name) {
        if (name === "STMTTRN" && transaction !== null && statement !== null) {
          document.transactionCount++;
          if (document.transactionCount <= maxTransactions) statement.transactions.push(transaction);
          transaction = null;
        } else if (STATEMENTS.has(name)) {
          statement = null;
          transaction = null;
        }
      },
    },
    undefined,
    signal,
  );
  if (unclosedTransactions > 0) {
    throw new StatementFileError("invalid_file_type", `The OFX file could not be read: ${unclosedTransactions} <STMTTRN> without its </STMTTRN>`);
  }
  return document;
}
