import { Turns } from "../ndjson/turns";
import { ImportConfigParamsSchema } from "@hearth/contracts";
import { DEFAULT_ROW_NAME } from "../parsing/sure-cells";
import { StatementFileError } from "../statement-files/statement-file-error";
import type { StatementFileRead, StatementReadOptions } from "../statement-files/statement-file";
import { statementRow, type StatementTransaction } from "../statement-files/statement-row";
import { readOfxDocument, type OfxStatement, type OfxTransaction } from "./ofx-statements";
import { readOfxAmount, readOfxDate } from "./ofx-values";

/** Where the <OFX> element starts (any case, after the SGML header or XML declarations), or -1. */
function ofxRootOf(text: string): number {
  for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at + 1)) {
    const after = text[at + 4];
    if (text.slice(at + 1, at + 4).toUpperCase() === "OFX" && (after === ">" || after === " " || after === "\t" || after === "\r" || after === "\n")) return at;
  }
  return -1;
}

const blankToNull = (value: string | undefined) => (value === undefined || value === "" ? null : value);

/**
 * One STMTTRN as a transaction: dated by DTPOSTED (DTUSER when it is missing), its amount
 * TRNAMT in the transaction's CURRENCY, else the statement's CURDEF, else the account's; named
 * by NAME (or PAYEE's), else MEMO, else its check number ("Check 1000"), else "Imported item" as
 * Sure names a row without one, with MEMO as notes when it is not the name; FITID is its external id.
 */
function transactionOf(fields: OfxTransaction, statement: OfxStatement, rowNumber: number, defaultCurrency: string): StatementTransaction {
  const dateText = blankToNull(fields.get("DTPOSTED")) ?? fields.get("DTUSER") ?? "";
  const amountText = fields.get("TRNAMT") ?? "";
  const fileCurrency = blankToNull(fields.get("CURRENCY.CURSYM")) ?? statement.currency;
  const payee = blankToNull(fields.get("NAME")) ?? blankToNull(fields.get("PAYEE.NAME")) ?? blankToNull(fields.get("PAYEE"));
  const memo = fields.get("MEMO") ?? "";
  const check = blankToNull(fields.get("CHECKNUM"));
  return {
    rowNumber,
    dateText,
    date: dateText === "" ? null : readOfxDate(dateText),
    amountText,
    amount: amountText === "" ? null : readOfxAmount(amountText),
    currency: fileCurrency ?? defaultCurrency,
    currencyFromFile: fileCurrency !== null,
    name: payee ?? (memo !== "" ? memo : check !== null ? `Check ${check}` : DEFAULT_ROW_NAME),
    notes: payee !== null ? memo : "",
    categoryText: "",
    category: "",
    categoryParent: null,
    tags: [],
    entityType: fields.get("TRNTYPE") ?? "",
    externalId: blankToNull(fields.get("FITID")),
    account: "",
  };
}

/**
 * An OFX or QFX file (OFX 1.x SGML, with or without closing tags, or 2.x XML; QFX is OFX with
 * Intuit's extra elements) as TransactionImport rows, one per STMTTRN of its bank or credit card
 * statement. Refused as a whole: no <OFX> element, unreadable markup, no bank or credit card
 * statement (an investment one is named), or statements of more than one account, which one
 * import cannot tell apart.
 */
export async function readOfxImport(content: string, options: StatementReadOptions): Promise<StatementFileRead> {
  const root = ofxRootOf(content);
  if (root === -1) throw new StatementFileError("invalid_file_type", "The content is not an OFX file: it has no <OFX> element");
  const document = await readOfxDocument(content, root, options.maxRows, options.signal);
  if (document.statements.length === 0) {
    throw new StatementFileError(
      "validation_failed",
      document.investmentStatements > 0
        ? "The OFX file holds an investment statement (INVSTMTRS), which OfxImport does not read: export the account's bank or credit card statement"
        : "The OFX file holds no bank or credit card statement (STMTRS or CCSTMTRS)",
    );
  }
  const accounts = [...new Set(document.statements.map((statement) => statement.accountId ?? ""))];
  if (accounts.length > 1) {
    const named = accounts.map((account) => (account === "" ? "(no ACCTID)" : `...${account.slice(-4)}`)).join(", ");
    throw new StatementFileError(
      "validation_failed",
      `The OFX file holds statements of ${accounts.length} accounts (${named}): import each account's statement on its own`,
    );
  }
  let rowNumber = 0;
  const turns = new Turns();
  const rows: StatementFileRead["rows"] = [];
  for (const statement of document.statements) {
    for (const fields of statement.transactions) {
      if (turns.due(4)) {
        await turns.pause();
        options.signal?.throwIfAborted();
      }
      rows.push(statementRow(transactionOf(fields, statement, ++rowNumber, options.defaultCurrency), options.today));
    }
  }
  return { rows, transactionCount: document.transactionCount, config: { ...ImportConfigParamsSchema.parse({}), date_format: "%Y%m%d" } };
}
