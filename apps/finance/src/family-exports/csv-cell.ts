/**
 * CSV as Ruby's CSV.generate writes it (Sure's exporter): "," between cells, "\n" after each row;
 * here for header lines and rules.csv; data rows are written the same way in SQL
 * (export-format-sql.ts): a cell is quoted when it holds a comma, a double quote, CR or LF, inner
 * quotes doubled; an empty string is quoted ("") while nil is an empty cell (Ruby's quote_empty default).
 *
 * Unlike Sure's exporter, text cells take a formula-injection guard (csvText below, csvTextSql in
 * SQL); numbers never do, so a negative amount stays a number a spreadsheet or importer reads.
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

/**
 * A cell a spreadsheet may run as a formula (OWASP's CSV injection list: = + - @ TAB CR, also after
 * leading spaces, which some importers trim, and their full-width forms, which some read as the
 * ASCII ones), or one that starts with the guard's own quote (guarded too, so the import's
 * unguardedText gives back exactly the text written).
 */
export const NEEDS_FORMULA_GUARD = /^(?:[ \t\n\v\f\r]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r'])/;

/**
 * Formula-injection guard (OWASP) for a text cell that people or banks wrote (a name, a note, a
 * category, merchant, tag or account name): one NEEDS_FORMULA_GUARD matches gets a leading "'",
 * so Excel, LibreOffice and Sheets take it as text instead of running `=HYPERLINK(...)`. Any
 * other text, and nil, is left as it is, so ordinary data is written byte for byte as before.
 * Only text cells take it: amounts, quantities and prices are written unguarded so a negative
 * number stays a number, and dates, ids, currencies and enum labels never start with a trigger.
 * export-format-sql.ts's csvTextSql is the same rule for the rows PostgreSQL writes.
 */
export function csvText(value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined || value === "") return value;
  return NEEDS_FORMULA_GUARD.test(value) ? `'${value}` : value;
}
