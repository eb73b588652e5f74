import { CsvError, parse } from "csv-parse/sync";

/** A CSV table: the header row and the data rows, every cell trimmed, blank lines left out. */
export interface CsvTable {
  headers: string[];
  rows: string[][];
}

/** Text that is no CSV: an unclosed quote, or something after a closing quote. */
export class CsvSyntaxError extends Error {
  override name = "CsvSyntaxError";
}

/**
 * Reads CSV as Sure's imports do (Ruby's CSV with headers, liberal parsing and stripped cells):
 * commas between cells; CRLF, LF or CR between rows; a cell in double quotes may hold commas,
 * line breaks and doubled quotes; a quote inside an unquoted cell is just a character.
 */
export function parseCsv(text: string): CsvTable {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (err) {
    if (err instanceof CsvError) throw new CsvSyntaxError(err.message);
    throw err;
  }
  // Ruby's CSV strips quoted cells too, and a line of only blanks is no record.
  const cells = records.map((record) => record.map((cell) => cell.trim())).filter((record) => !(record.length === 1 && record[0] === ""));
  const [headers = [], ...rows] = cells;
  return { headers, rows };
}
