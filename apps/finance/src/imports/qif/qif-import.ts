import { Turns } from "../ndjson/turns";
import { ImportConfigParamsSchema } from "@hearth/contracts";
import { DEFAULT_ROW_NAME } from "../parsing/sure-cells";
import { StatementFileError } from "../statement-files/statement-file-error";
import type { StatementFileRead, StatementReadOptions } from "../statement-files/statement-file";
import { statementRow, type StatementTransaction } from "../statement-files/statement-row";
import { QIF_DEFAULT_DATE_FORMAT, detectQifDateFormat, readQifDate } from "./qif-dates";
import { qifCategoryOf, readQifAmount } from "./qif-fields";
import { scanQif, type QifRecord } from "./qif-records";

/** Quicken's first record of a bank or cash account: its starting balance, not a transaction (Sure's QifParser skips it). */
const OPENING_BALANCE = "Opening Balance";

const isOpeningBalance = (record: QifRecord) => record.fields.get("P")?.trim() === OPENING_BALANCE;
const present = (value: string | undefined) => (value === undefined || value === "" ? null : value);

/**
 * A QIF file of a bank, cash, credit card or other asset/liability account as TransactionImport
 * rows, read as Sure's QifImport reads it: one row per record of the account's section (its
 * "Opening Balance" record left out), dated by D in the file's date format (detected from its
 * dates as Sure does, unless date_format names another than the default), the amount T (else
 * U) per number_format, named by P (else "Imported item"), M as notes, the category and tags of
 * L. A split record (S/$/E lines) is one transaction of its total T with L's category, its
 * split lines set aside, as in Sure. Unlike Sure, a record without a readable date or amount is
 * kept as a row with its errors rather than dropped. A file of several accounts (Quicken's
 * all-accounts export, "!Account" before each section) is read whole, each row naming its
 * account, for an import that names none (Sure reads the first account's); its investment
 * sections are left out. Refused as a whole: no "!Type:" header, no transaction section, only
 * an investment account (Sure's trades are not read here), several accounts' sections that do
 * not name them, or several named accounts for an import given one account.
 */
export async function readQifImport(content: string, options: StatementReadOptions): Promise<StatementFileRead> {
  // Opening Balance records are not rows: keep one record more than the cap so the count past it stays true.
  const scan = await scanQif(content, options.maxRows + 1, options.signal);
  if (scan.types.length === 0) throw new StatementFileError("invalid_file_type", "The content is not a QIF file: it has no !Type: header");
  if (scan.accountType === null) {
    throw new StatementFileError("validation_failed", `The QIF file lists no transactions (its sections: ${scan.types.slice(0, 5).join(", ")})`);
  }
  if (scan.accounts.length === 0) {
    throw new StatementFileError(
      "validation_failed",
      "The QIF file is an investment account's (!Type:Invst), which QifImport does not read yet: export a bank, cash or credit card account",
    );
  }
  const named = [...new Set(scan.accounts)];
  if (scan.accounts.length > 1 && named.includes("")) {
    throw new StatementFileError(
      "validation_failed",
      `The QIF file holds ${scan.accounts.length} accounts' transactions without naming them (no !Account records): export each account to its own file and import them one by one`,
    );
  }
  // Quicken's all-accounts export: each section's transactions go to the account its name maps to.
  const hasAccount = options.hasAccount !== false;
  if (named.length > 1 && hasAccount) {
    throw new StatementFileError(
      "validation_failed",
      `The QIF file holds the transactions of ${named.length} accounts (${named.slice(0, 5).join(", ")}): leave account_id out to import each into the account its name goes to`,
    );
  }

  const dateFormat =
    options.config.date_format !== QIF_DEFAULT_DATE_FORMAT
      ? options.config.date_format
      : detectQifDateFormat(
          scan.records.flatMap((record) => record.fields.get("D") ?? []),
          options.today,
        );
  const numberFormat = options.config.number_format;
  const currentYear = Number(options.today.slice(0, 4));
  const records = scan.records.filter((record) => !isOpeningBalance(record));
  const skipped = scan.records.length - records.length;

  const turns = new Turns();
  const rows: StatementFileRead["rows"] = [];
  for (const [index, record] of records.slice(0, options.maxRows).entries()) {
    if (turns.due(4)) {
      await turns.pause();
      options.signal?.throwIfAborted();
    }
    const dateText = record.fields.get("D") ?? "";
    const amountText = present(record.fields.get("T")) ?? record.fields.get("U") ?? "";
    const categoryText = record.fields.get("L") ?? "";
    const { category, parent, tags } = qifCategoryOf(categoryText);
    const transaction: StatementTransaction = {
      rowNumber: index + 1,
      dateText,
      date: dateText === "" ? null : readQifDate(dateText, dateFormat, currentYear),
      amountText,
      amount: amountText === "" ? null : readQifAmount(amountText, numberFormat),
      currency: options.defaultCurrency,
      currencyFromFile: false,
      name: present(record.fields.get("P")) ?? DEFAULT_ROW_NAME,
      notes: record.fields.get("M") ?? "",
      categoryText,
      category,
      categoryParent: parent,
      tags,
      entityType: "",
      externalId: null,
      account: hasAccount ? "" : record.account,
    };
    rows.push(statementRow(transaction, options.today));
  }
  return {
    rows,
    transactionCount: scan.recordCount - skipped,
    config: { ...ImportConfigParamsSchema.parse({}), date_format: dateFormat, number_format: numberFormat },
  };
}
