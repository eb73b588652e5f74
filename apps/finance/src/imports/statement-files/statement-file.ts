import type { ImportConfig } from "@hearth/contracts";
import type { CandidateRow } from "../parsing/row-types";
import type { StatementRowValues } from "./statement-row";

/** What reading an OFX or QIF file needs besides the file. */
export interface StatementReadOptions {
  /** The import's configuration as the client sent it (QIF reads its date_format and number_format). */
  config: ImportConfig;
  /** The import's account's currency (else the family's): what amounts are in when the file does not say. */
  defaultCurrency: string;
  /** Today (YYYY-MM-DD): dates after it, or more than 30 years before it, are refused (Sure's date_valid). */
  today: string;
  /** Transactions kept as rows; past it they are only counted. */
  maxRows: number;
  /** False when the import names no account (no account_id): rows name theirs, where the file does (QIF's !Account). */
  hasAccount?: boolean | undefined;
  /** The caller has gone: the read stops. */
  signal?: AbortSignal | undefined;
}

/** A file read: its first `maxRows` transactions as rows, how many it has, and the configuration it was read with. */
export interface StatementFileRead {
  rows: CandidateRow<StatementRowValues>[];
  transactionCount: number;
  /** As stored with the import: the date format the file's dates were read in, the others Sure's defaults. */
  config: ImportConfig;
}
