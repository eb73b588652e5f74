/**
 * CSV as Ruby's CSV.generate writes it (Sure's exporter): "," between cells, "\n" after each row;
 * here for header lines and rules.csv; data rows are written the same way in SQL (sql-format.ts):
 * a cell is quoted when it holds a comma, a double quote, CR or LF, inner quotes doubled; an
 * empty string is quoted ("") while nil is an empty cell (Ruby's quote_empty default).
 *
 * No formula-injection guard: Sure's exporter has none, and prefixing cells that start with
 * = + - @ would turn every negative amount into text no importer reads back as a number.
 */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  if (text === "" || NEEDS_QUOTES.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** One CSV line, newline included. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\n`;
}
