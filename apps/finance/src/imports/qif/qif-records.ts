import { StatementFileError } from "../statement-files/statement-file-error";
import { lineUnits, Turns } from "../ndjson/turns";

/** The caps one QIF file is read under: a hostile file fails with a clear error, in time linear in its size. */
export const QIF_LIMITS = { maxLineLength: 32_768 } as const;

/** Sections that describe rather than list an account's transactions (Sure's QifParser skips the first four when it picks the account's). */
const METADATA_SECTIONS = new Set(["tag", "cat", "security", "prices", "class", "memorized", "invoice"]);

/** One record of a transaction section (the lines up to "^"): its fields by code, the last of a code winning as in Sure. */
export interface QifRecord {
  fields: Map<string, string>;
  /** The name of the account whose section it is in (its "!Account" record's N), "" when the file names none. */
  account: string;
  /** It has split lines (S, then $ and E: a category, amount and memo each); Sure's "_split". */
  split: boolean;
}

export interface QifScan {
  /** The "!Type:" headers met, in order, as written after the colon. */
  types: string[];
  /** The type of the first transaction section ("Bank", "CCard", ...), or null. */
  accountType: string | null;
  /** Transaction sections in the file (each an account's transactions), investment ones included. */
  transactionSections: number;
  /** The account names of the sections read (bank, cash, card...), in order, "" for one the file names none for. */
  accounts: string[];
  /** The sections not read: investment accounts (!Type:Invst), by their account's name, else "Invst". */
  investmentSections: string[];
  /** The records of the sections read, in order, up to the cap. */
  records: QifRecord[];
  /** Their records in all. */
  recordCount: number;
}

/**
 * Calls `visit` with each line of `text` (CRLF, LF or CR ends one) and its number, without
 * splitting the text into an array; a line past the cap makes the file unreadable. In turns: the
 * event loop is given back about every 5 ms, and a read whose caller has gone stops there.
 */
async function forEachLine(text: string, visit: (line: string, number: number) => void, signal?: AbortSignal): Promise<void> {
  const turns = new Turns();
  let number = 0;
  let at = 0;
  while (at < text.length) {
    let end = at;
    // Past the cap the line is refused: it is not scanned to its end.
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r" && end - at <= QIF_LIMITS.maxLineLength) end++;
    number++;
    if (end - at > QIF_LIMITS.maxLineLength) {
      throw new StatementFileError("invalid_file_type", `The QIF file could not be read: line ${number} is longer than ${QIF_LIMITS.maxLineLength} characters`);
    }
    visit(text.slice(at, end), number);
    // A long line is more work than a short one: counted by its length.
    if (turns.due(lineUnits(end - at))) {
      await turns.pause();
      signal?.throwIfAborted();
    }
    at = end + (text[end] === "\r" && text[end + 1] === "\n" ? 2 : 1);
  }
}

/**
 * The sections of a QIF file, as Sure's QifParser reads them: a "!Type:" header opens a section,
 * any header ("!Type:", "!Account", "!Option:...") ends one; a line is a field code (its first
 * character) and a value (the rest, trimmed); "^" ends a record. Every section that lists
 * transactions (not Tag, Cat, Security or Prices) is read, but investment ones, each record
 * with the name of the account whose section it is in: Quicken's all-accounts export puts an
 * "!Account" record (N its name, T its type) before each account's "!Type:" section (Sure reads
 * only the first account's). Only `maxRecords` records are kept; the rest are counted.
 */
export async function scanQif(text: string, maxRecords: number, signal?: AbortSignal): Promise<QifScan> {
  const scan: QifScan = { types: [], accountType: null, transactionSections: 0, accounts: [], investmentSections: [], records: [], recordCount: 0 };
  let inAccountSection = false;
  /** In an "!Account" block: its records name accounts (the last one named before a "!Type:" is that section's). */
  let inAccountList = false;
  let accountName = "";
  let current: QifRecord = { fields: new Map(), account: "", split: false };
  const endRecord = () => {
    if (current.fields.size === 0) return;
    scan.recordCount++;
    if (scan.records.length < maxRecords) scan.records.push(current);
    current = { fields: new Map(), account: accountName, split: false };
  };
  const endAccountRecord = () => {
    accountName = current.fields.get("N") ?? accountName;
    current = { fields: new Map(), account: accountName, split: false };
  };

  await forEachLine(
    text,
    (raw) => {
      const line = raw.trim();
      if (line === "") return;
      if (line.startsWith("!")) {
        if (inAccountSection) endRecord();
        if (inAccountList) endAccountRecord();
        inAccountSection = false;
        inAccountList = line.toLowerCase() === "!account";
        if (line.slice(0, 6).toLowerCase() !== "!type:") return;
        const type = line.slice(6).trim();
        scan.types.push(type);
        if (METADATA_SECTIONS.has(type.toLowerCase())) return;
        scan.transactionSections++;
        scan.accountType ??= type;
        if (type.toLowerCase() === "invst") {
          scan.investmentSections.push(accountName === "" ? type : accountName);
          return;
        }
        scan.accounts.push(accountName);
        inAccountSection = true;
        current = { fields: new Map(), account: accountName, split: false };
        return;
      }
      if (inAccountList) {
        if (line === "^") endAccountRecord();
        else current.fields.set(line[0]!, line.slice(1).trim());
        return;
      }
      if (!inAccountSection) return;
      if (line === "^") {
        endRecord();
        return;
      }
      const code = line[0]!;
      if (code === "S") current.split = true;
      current.fields.set(code, line.slice(1).trim());
    },
    signal,
  );
  if (inAccountSection) endRecord();
  return scan;
}
