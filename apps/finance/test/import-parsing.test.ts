import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  IMPORT_CSV_LIMITS,
  IMPORT_DATE_FORMATS,
  IMPORT_NUMBER_FORMATS,
  ImportConfigParamsSchema,
  ImportPreflightSchema,
  ROW_COUNT_WARNING,
  type CsvImportType,
  type ImportConfigParams,
  type ImportDateFormat,
  type ImportNumberFormat,
} from "@hearth/contracts";
import {
  ImportParseError,
  NUMBER_FORMAT_SYMBOLS,
  countLines,
  mapCsvImport,
  minorUnitsOf,
  normalizeHeader,
  parseAmount,
  parseCsvTable,
  parseDateByFormat,
  parseDecimal,
  parseRuleJson,
  preflightCsvImport,
  readCsvImport,
  roundDecimal,
  rowsToSkipIssue,
  tagsListOf,
  type CsvImportContext,
} from "../src/imports/parsing";
import { threadCpuMs } from "./event-loop";

const TODAY = "2026-05-01";

function contextOf(params: ImportConfigParams = {}, extra: Partial<CsvImportContext> = {}): CsvImportContext {
  return { config: ImportConfigParamsSchema.parse(params), defaultCurrency: "USD", today: TODAY, hasAccount: false, ...extra };
}

function read<T extends CsvImportType>(type: T, csv: string, params: ImportConfigParams = {}, extra: Partial<CsvImportContext> = {}) {
  return readCsvImport(type, csv, contextOf(params, extra));
}

/** The ImportParseError `run` throws (fails the test when it throws none or another). */
async function parseErrorOf(run: () => unknown): Promise<ImportParseError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ImportParseError) return err;
    throw err;
  }
  throw new Error("expected an ImportParseError");
}

/** Integer minor units written the way a bank export in `format` writes them. */
function formatMinorUnits(units: bigint, format: ImportNumberFormat, digits: number, style: { symbol: string; parens: boolean; space: string }): string {
  const { separator, delimiter } = NUMBER_FORMAT_SYMBOLS[format];
  const size = (units < 0n ? -units : units).toString().padStart(digits + 1, "0");
  const whole = size.slice(0, size.length - digits);
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.unshift(whole.slice(Math.max(0, end - 3), end));
  const number = groups.join(delimiter === " " ? style.space : delimiter) + (digits > 0 ? `${separator}${size.slice(size.length - digits)}` : "");
  if (units >= 0n) return `${style.symbol}${number}`;
  return style.parens ? `(${style.symbol}${number})` : `-${style.symbol}${number}`;
}

// ------------------------------------------------------------------------------------ numbers

describe("number formats", () => {
  // Sure's import_interface_test.rb "parses US/UK number format correctly", "... European ...", "... French/Scandinavian ...", "... zero-decimal ..."
  it.each([
    ["1,234.56", "1,234.56", "1234.56"],
    ["1.234,56", "1.234,56", "1234.56"],
    ["1 234,56", "1 234,56", "1234.56"],
    ["1,234", "1234", "1234"],
    ["1,234", "1,234,567", "1234567"],
    ["1,234.56", "1234.56", "1234.56"],
    ["1.234,56", "0,5", "0.5"],
  ] as const)("reads %s: %s as %s", (format, text, decimal) => {
    expect(parseDecimal(text, format)).toEqual({ ok: true, decimal });
  });

  // Sure's "parses French/Scandinavian format with non-breaking-space / narrow no-break-space thousands separator"
  it("reads the space format's thousands with a no-break space or a narrow one", async () => {
    expect(parseDecimal("1\u00a0234,56", "1 234,56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("1\u202f234\u202f567,89", "1 234,56")).toEqual({ ok: true, decimal: "1234567.89" });
  });

  // Sure's "strips leading/trailing currency junk under the French/Scandinavian format"
  it("drops currency symbols and codes around the number", async () => {
    expect(parseDecimal("1 234,56 kr", "1 234,56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("€1 234,56", "1 234,56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("$1,234.56", "1,234.56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("USD 12.00", "1,234.56")).toEqual({ ok: true, decimal: "12.00" });
    expect(parseDecimal("1.234,56 €", "1.234,56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("¥1,234", "1,234")).toEqual({ ok: true, decimal: "1234" });
  });

  it("reads a leading minus wherever the currency symbol is, and accountants' parentheses as negative", async () => {
    for (const text of ["-1,234.56", "-$1,234.56", "$-1,234.56", "USD -1,234.56", "(1,234.56)", "($1,234.56)", "(1,234.56 USD)"]) {
      expect(parseDecimal(text, "1,234.56"), text).toEqual({ ok: true, decimal: "-1234.56" });
    }
    expect(parseDecimal("-1 234,56 kr", "1 234,56")).toEqual({ ok: true, decimal: "-1234.56" });
    expect(parseDecimal("(1.234,56)", "1.234,56")).toEqual({ ok: true, decimal: "-1234.56" });
    expect(parseDecimal("-0.00", "1,234.56")).toEqual({ ok: true, decimal: "0.00" });
  });

  // Sure's "rejects US-punctuation values under the French/Scandinavian format"
  it("refuses what is no number in the format rather than guessing", async () => {
    const refused: [string, ImportNumberFormat][] = [
      ["1,234.56", "1 234,56"],
      ["1.234,56", "1,234.56"],
      ["1.234.56", "1,234.56"],
      ["12.50", "1,234"],
      ["12abc34", "1,234.56"],
      ["1e5", "1,234.56"],
      ["12.00-", "1,234.56"],
      ["--5", "1,234.56"],
      ["(-5)", "1,234.56"],
      ["(5", "1,234.56"],
      ["5)", "1,234.56"],
      ["abc", "1,234.56"],
      ["$", "1,234.56"],
    ];
    for (const [text, format] of refused) expect(parseDecimal(text, format), `${text} in ${format}`).toEqual({ ok: false, reason: "invalid" });
    expect(parseDecimal("   ", "1,234.56")).toEqual({ ok: false, reason: "blank" });
    expect(parseDecimal("1".repeat(16), "1,234.56")).toEqual({ ok: false, reason: "out_of_range" });
  });

  it("keeps Sure's leniencies: '12.' is 12, '.50' is 0.50, spaces and apostrophes group thousands", async () => {
    expect(parseDecimal("12.", "1,234.56")).toEqual({ ok: true, decimal: "12" });
    expect(parseDecimal("$.50", "1,234.56")).toEqual({ ok: true, decimal: "0.50" });
    expect(parseDecimal("1 234.56", "1,234.56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("1'234.56", "1,234.56")).toEqual({ ok: true, decimal: "1234.56" });
    expect(parseDecimal("007", "1,234.56")).toEqual({ ok: true, decimal: "7" });
  });

  it("turns an amount into the currency's minor units without rounding", async () => {
    expect(parseAmount("1,234.56", "1,234.56", 2)).toEqual({ ok: true, decimal: "1234.56", minorUnits: 123456n });
    expect(parseAmount("1.234", "1.234,56", 0)).toEqual({ ok: true, decimal: "1234", minorUnits: 1234n });
    expect(parseAmount("1,234", "1,234", 2)).toEqual({ ok: true, decimal: "1234", minorUnits: 123400n });
    expect(parseAmount("12.5000", "1,234.56", 2)).toEqual({ ok: true, decimal: "12.5000", minorUnits: 1250n });
    expect(parseAmount("12.345", "1,234.56", 2)).toEqual({ ok: false, reason: "too_many_decimals" });
    expect(parseAmount("12.5", "1,234.56", 0)).toEqual({ ok: false, reason: "too_many_decimals" });
    expect(parseAmount("12.345", "1,234.56", 3)).toEqual({ ok: true, decimal: "12.345", minorUnits: 12345n });
    expect(minorUnitsOf("10000000000", 2)).toEqual({ ok: true, minorUnits: 1_000_000_000_000n });
    expect(minorUnitsOf("10000000000.01", 2)).toEqual({ ok: false, reason: "out_of_range" });
    expect(minorUnitsOf("-0.01", 2)).toEqual({ ok: true, minorUnits: -1n });
  });

  it("rounds a quantity or price to its column's scale half away from zero", async () => {
    expect(roundDecimal("123.45675", 4)).toBe("123.4568");
    expect(roundDecimal("-123.45675", 4)).toBe("-123.4568");
    expect(roundDecimal("123.45674", 4)).toBe("123.4567");
    expect(roundDecimal("0.000000005", 8)).toBe("0.00000001");
    expect(roundDecimal("0.000000004", 8)).toBe("0");
    expect(roundDecimal("10.50", 8)).toBe("10.5");
    expect(roundDecimal("9.99999999999", 8)).toBe("10");
    expect(roundDecimal("42", 0)).toBe("42");
  });

  it("reads back every amount written in each format (property)", async () => {
    const style = fc.record({ symbol: fc.constantFrom("", "$", "€", "kr "), parens: fc.boolean(), space: fc.constantFrom(" ", "\u00a0", "\u202f") });
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.constantFrom(...IMPORT_NUMBER_FORMATS),
        fc.constantFrom(0, 2, 3),
        style,
        (units, format, wanted, how) => {
          const digits = format === "1,234" ? 0 : wanted;
          const text = formatMinorUnits(units, format, digits, how);
          const parsed = parseAmount(text, format, digits);
          expect(parsed, text).toMatchObject({ ok: true, minorUnits: units });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("never throws on arbitrary text, and answers a plain decimal when it reads one (property)", async () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom(...IMPORT_NUMBER_FORMATS), (text, format) => {
        const parsed = parseDecimal(text, format);
        if (parsed.ok) expect(parsed.decimal).toMatch(/^-?\d+(\.\d+)?$/);
      }),
      { numRuns: 2_000 },
    );
  });
});

// ------------------------------------------------------------------------------------ dates

describe("date formats", () => {
  const samples: Record<ImportDateFormat, string> = {
    "%m-%d-%Y": "05-15-2024",
    "%d.%m.%Y": "15.05.2024",
    "%d-%m-%Y": "15-05-2024",
    "%Y-%m-%d": "2024-05-15",
    "%d/%m/%Y": "15/05/2024",
    "%Y/%m/%d": "2024/05/15",
    "%m/%d/%Y": "05/15/2024",
    "%e/%m/%Y": "15/05/2024",
    "%Y.%m.%d": "2024.05.15",
    "%Y%m%d": "20240515",
    "%d %b %Y": "15 May 2024",
    // Sure's import_test.rb "date_format accepts a CSV-only format like DD/MM/YY"
    "%d/%m/%y": "15/05/24",
    "%d.%m.%y": "15.05.24",
  };

  it.each(Object.keys(IMPORT_DATE_FORMATS) as ImportDateFormat[])("reads %s", (format) => {
    expect(parseDateByFormat(samples[format], format)).toBe("2024-05-15");
  });

  it.each([
    ["2026-02-30", "%Y-%m-%d"],
    ["2023-02-29", "%Y-%m-%d"],
    ["31/04/2024", "%d/%m/%Y"],
    ["13/01/2024", "%m/%d/%Y"],
    ["00/01/2024", "%d/%m/%Y"],
    ["2024-05-15", "%m/%d/%Y"],
    ["05/15/2024 10:00", "%m/%d/%Y"],
    ["05-15-2024", "%m/%d/%Y"],
    ["15 Mai 2024", "%d %b %Y"],
    ["2024-5-155", "%Y-%m-%d"],
    ["20240-01-01", "%Y-%m-%d"],
    ["", "%Y-%m-%d"],
  ] as const)("refuses %s as %s", (text, format) => {
    expect(parseDateByFormat(text, format)).toBeNull();
  });

  it("reads as Ruby's strptime does: one-digit fields, a padded %e, month names in any case, the %y pivot", async () => {
    expect(parseDateByFormat("1/5/2024", "%m/%d/%Y")).toBe("2024-01-05");
    expect(parseDateByFormat(" 5/01/2024", "%e/%m/%Y")).toBe("2024-01-05");
    expect(parseDateByFormat("05 jan 2024", "%d %b %Y")).toBe("2024-01-05");
    expect(parseDateByFormat("05 SEPTEMBER 2024", "%d %b %Y")).toBe("2024-09-05");
    expect(parseDateByFormat("29/02/24", "%d/%m/%y")).toBe("2024-02-29");
    expect(parseDateByFormat("01/01/69", "%d/%m/%y")).toBe("1969-01-01");
    expect(parseDateByFormat("01/01/68", "%d/%m/%y")).toBe("2068-01-01");
    expect(parseDateByFormat("2024-02-29", "%Y-%m-%d")).toBe("2024-02-29");
    expect(parseDateByFormat("2000-02-29", "%Y-%m-%d")).toBe("2000-02-29");
    expect(parseDateByFormat("1900-02-29", "%Y-%m-%d")).toBeNull();
  });
});

// ------------------------------------------------------------------------------------ CSV

describe("CSV tables", () => {
  it("normalises headers as Sure does", async () => {
    expect(normalizeHeader(" Date* ")).toBe("date");
    expect(normalizeHeader("Account Name")).toBe("account_name");
    expect(normalizeHeader("Exchange - Operating  MIC")).toBe("exchange_operating_mic");
    expect(normalizeHeader("Amount *")).toBe("amount");
  });

  it("reads quoted cells with separators, doubled quotes and line breaks; a stray quote in a bare cell is a character", async () => {
    const table = await parseCsvTable('date,name,notes\r\n2024-01-01,"Coffee, large","said ""hi""\nthen left"\r\n2024-01-02,Joe\'s "bar",x\r\n', {
      colSep: ",",
    });
    expect(table.headers).toEqual(["date", "name", "notes"]);
    expect(table.rows).toEqual([
      ["2024-01-01", "Coffee, large", 'said "hi"\nthen left'],
      ["2024-01-02", 'Joe\'s "bar"', "x"],
    ]);
  });

  it("drops a byte order mark, trims cells, and leaves out blank lines and rows of blank cells", async () => {
    const table = await parseCsvTable("\uFEFFdate , amount\n\n 2024-01-01 , 5 \n,\n   \n2024-01-02,6", { colSep: "," });
    expect(table.headers).toEqual(["date", "amount"]);
    expect(table.rows).toEqual([
      ["2024-01-01", "5"],
      ["2024-01-02", "6"],
    ]);
    expect(table.rowCount).toBe(2);
  });

  it("reads semicolon-separated files with European amounts", async () => {
    const { rows } = await read("TransactionImport", 'date;amount;name\n15.05.2024;-1.234,56;Miete\n16.05.2024;"12,5";Kaffee; extra', {
      col_sep: ";",
      number_format: "1.234,56",
      date_format: "%d.%m.%Y",
      signage_convention: "inflows_negative",
    });
    expect(rows.map((row) => [row.values?.date, row.values?.amount_cents, row.values?.name])).toEqual([
      ["2024-05-15", -123456n, "Miete"],
      ["2024-05-16", 1250n, "Kaffee"],
    ]);
  });

  // Sure's transaction_import_test.rb "skips specified number of rows"
  it("skips rows_to_skip raw lines before the header", async () => {
    const csv = "Some Metadata provided by bank\nGenerated on 2024-01-01\ndate,name,amount\n01/01/2024,Transaction 1,100\n01/02/2024,Transaction 2,200\n";
    const { rows } = await read("TransactionImport", csv, { rows_to_skip: 2, signage_convention: "inflows_negative" });
    expect(rows).toHaveLength(2);
    expect(rows[0]?.fields.name).toBe("Transaction 1");
    expect(rows[0]?.fields.amount).toBe("100");
    expect(rows[0]?.row_number).toBe(1);
  });

  it("refuses a rows_to_skip that leaves no header, as Sure's rows_to_skip_within_file_bounds", async () => {
    expect(countLines("a\nb\nc")).toBe(3);
    expect(countLines("a\nb\n")).toBe(2);
    expect(rowsToSkipIssue("a\nb\n", 2)).toBe("Rows to skip must be less than the number of lines in the file (2)");
    expect(rowsToSkipIssue("a\nb\n", 1)).toBeNull();
    const result = await read("TransactionImport", "date,amount\n", { rows_to_skip: 5 });
    expect(result.errors).toEqual([{ code: "validation_failed", message: "Rows to skip must be less than the number of lines in the file (1)" }]);
    expect(result.rows).toEqual([]);
  });

  // Sure's imports_controller_test.rb "should reject malformed CSV during preflight"
  it("answers invalid_csv for an unclosed quote", async () => {
    const error = await parseErrorOf(() => parseCsvTable('date,amount,name\n2024-01-01,-10.00,"Coffee Shop', { colSep: "," }));
    expect(error.code).toBe("invalid_csv");
    expect(error.errors[0]).toMatch(/Quote Not Closed/);
  });
});

describe("CSV caps", () => {
  // Sure's imports_controller_test.rb "should reject oversized file uploads during preflight"
  it("refuses 10 MB and one byte, counted in UTF-8 bytes, naming how the content came", async () => {
    const tooBig = "x".repeat(IMPORT_CSV_LIMITS.maxBytes + 1);
    const started = threadCpuMs();
    expect((await parseErrorOf(() => parseCsvTable(tooBig, { colSep: "," }))).code).toBe("content_too_large");
    const file = await parseErrorOf(() => parseCsvTable(tooBig, { colSep: ",", source: "file" }));
    expect(file).toMatchObject({ code: "file_too_large", message: "File is too large. Maximum size is 10MB." });
    expect(file.toAppError().status).toBe(422);
    expect(file.toAppError().toBody()).toEqual({ error: "file_too_large", message: "File is too large. Maximum size is 10MB." });
    const wide = "é".repeat(IMPORT_CSV_LIMITS.maxBytes / 2 + 1);
    expect((await parseErrorOf(() => preflightCsvImport({ type: "TransactionImport", params: {}, content: wide }))).code).toBe("content_too_large");
    expect(threadCpuMs() - started).toBeLessThan(2_000);
  });

  it("stops at row 10,001 with Sure's max_row_count_exceeded", async () => {
    const csv = `date,amount\n${"01/01/2024,1\n".repeat(IMPORT_CSV_LIMITS.maxRows + 1)}`;
    const started = threadCpuMs();
    expect((await parseErrorOf(() => read("TransactionImport", csv))).code).toBe("max_row_count_exceeded");
    expect(threadCpuMs() - started).toBeLessThan(2_000);
    expect((await read("TransactionImport", `date,amount\n${"01/01/2024,1\n".repeat(IMPORT_CSV_LIMITS.maxRows)}`)).rows).toHaveLength(
      IMPORT_CSV_LIMITS.maxRows,
    );
  });

  it("refuses an absurd cell, an absurd row and too many columns as invalid_csv, fast", async () => {
    const started = threadCpuMs();
    const cell = await parseErrorOf(() => parseCsvTable(`date,notes\n2024-01-01,${"n".repeat(1_000_000)}\n`, { colSep: "," }));
    expect(cell.code).toBe("invalid_csv");
    expect(cell.errors[0]).toBe(`Line 2, column 2 is longer than ${IMPORT_CSV_LIMITS.maxCellLength} characters`);
    const quoted = await parseErrorOf(() => parseCsvTable(`a\n"${"q".repeat(9_000_000)}"`, { colSep: "," }));
    expect(quoted.code).toBe("invalid_csv");
    const columns = await parseErrorOf(() => parseCsvTable(`${",".repeat(5_000)}\n`, { colSep: "," }));
    expect(columns.errors[0]).toBe(`Line 1 has 5001 columns; at most ${IMPORT_CSV_LIMITS.maxColumns} are read`);
    const binary = await parseErrorOf(() => parseCsvTable("date,amount\n\u0000\u0001", { colSep: "," }));
    expect(binary.code).toBe("invalid_csv");
    expect(threadCpuMs() - started).toBeLessThan(3_000);
  });

  it("counts a preflight's rows without a row cap, warning past the type's publish limit", async () => {
    const rows = "Checking,Main,10.00\n".repeat(51);
    const answer = await preflightCsvImport({ type: "AccountImport", params: {}, content: `account_type,name,balance\n${rows}` });
    expect(answer.stats.rows_count).toBe(51);
    expect(answer.warnings).toEqual([ROW_COUNT_WARNING]);
    expect(answer.valid).toBe(true);
  });
});

// ------------------------------------------------------------------------------------ configuration

describe("import configuration", () => {
  it("applies Sure's defaults", async () => {
    expect(ImportConfigParamsSchema.parse({})).toMatchObject({
      date_format: "%m/%d/%Y",
      number_format: "1,234.56",
      signage_convention: "inflows_positive",
      col_sep: ",",
      amount_type_strategy: "signed_amount",
      rows_to_skip: 0,
      date_col_label: null,
    });
  });

  it("reads rows_to_skip from text and refuses what Sure refuses, with Rails' messages", async () => {
    expect(ImportConfigParamsSchema.parse({ rows_to_skip: "2" }).rows_to_skip).toBe(2);
    const messages = (params: Record<string, unknown>) => {
      const parsed = ImportConfigParamsSchema.safeParse(params);
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    };
    expect(messages({ rows_to_skip: "abc" })).toEqual(["Rows to skip is not a number"]);
    expect(messages({ rows_to_skip: -1 })).toEqual(["Rows to skip must be greater than or equal to 0"]);
    expect(messages({ rows_to_skip: 1_001 })).toEqual(["Rows to skip must be less than or equal to 1000"]);
    expect(messages({ col_sep: "|" })).toEqual(["Col sep is not included in the list"]);
    expect(messages({ number_format: "1_234.56" })).toEqual(["Number format is not included in the list"]);
    expect(messages({ date_format: "%Y-%d-%m" })).toEqual(["Date format is not included in the list"]);
    expect(messages({ date_col_label: "d".repeat(256) })).toEqual(["Date col label is too long (maximum is 255 characters)"]);
    expect(messages({ amount_type_strategy: "custom_column" })).toEqual(["Custom column imports require an inflow column to be selected"]);
  });
});

// ------------------------------------------------------------------------------------ transaction rows

describe("transaction rows", () => {
  // Sure's import_interface_test.rb "generates rows with minimal required fields"
  it("names a nameless row 'Imported item' and gives it the default currency", async () => {
    const [row] = (await read("TransactionImport", "date,amount\n01/01/2024,1234.56", {}, { defaultCurrency: "EUR" })).rows;
    expect(row?.fields).toMatchObject({ date: "01/01/2024", amount: "1234.56", name: "Imported item", currency: "EUR" });
    expect(row?.values).toMatchObject({ amount_cents: -123456n, currency: "EUR", currency_from_file: false, category: "", tags: [], notes: null });
  });

  // Sure's "currency from CSV takes precedence over default" and "uses default currency when CSV currency column is empty"
  it("takes the row's currency from the file, else the default", async () => {
    const { rows } = await read("TransactionImport", "date,amount,name,currency\n01/01/2024,123.45,Test,eur\n01/01/2024,123.45,Test,");
    expect(rows.map((row) => [row.values?.currency, row.values?.currency_from_file])).toEqual([
      ["EUR", true],
      ["USD", false],
    ]);
  });

  it("signs amounts per signage_convention (Sure stores money out as positive)", async () => {
    const csv = "date,amount\n01/01/2024,100\n01/02/2024,-25.50";
    expect((await read("TransactionImport", csv, { signage_convention: "inflows_positive" })).rows.map((row) => row.values?.amount_cents)).toEqual([
      -10000n,
      2550n,
    ]);
    expect((await read("TransactionImport", csv, { signage_convention: "inflows_negative" })).rows.map((row) => row.values?.amount_cents)).toEqual([
      10000n,
      -2550n,
    ]);
    expect((await read("TransactionImport", csv, { signage_convention: null })).rows.map((row) => row.values?.amount_cents)).toEqual([10000n, -2550n]);
  });

  // Sure's transaction_import_test.rb "imports transactions with separate type column for signage convention"
  it("signs amounts from a type column with custom_column", async () => {
    const csv = "date,amount,amount_type\n01/01/2024,100,debit\n01/02/2024,200,credit\n01/03/2024,300,debit";
    const sure = contextOf({
      entity_type_col_label: "amount_type",
      amount_type_strategy: "custom_column",
      amount_type_inflow_value: "inflows_positive",
      signage_convention: null,
    });
    const legacy = { ...sure, config: { ...sure.config, amount_type_identifier_value: "debit" } };
    expect((await readCsvImport("TransactionImport", csv, legacy)).rows.map((row) => row.values?.amount_cents)).toEqual([-10000n, 20000n, -30000n]);

    const credit = async (signage_convention: "inflows_positive" | "inflows_negative") =>
      (
        await read("TransactionImport", csv, {
          entity_type_col_label: "amount_type",
          amount_type_strategy: "custom_column",
          amount_type_inflow_value: "credit",
          signage_convention,
        })
      ).rows.map((row) => row.values?.amount_cents);
    expect(await credit("inflows_positive")).toEqual([10000n, -20000n, 30000n]);
    expect(await credit("inflows_negative")).toEqual([-10000n, 20000n, -30000n]);
  });

  // Sure's "generates rows from legacy account_name header with template labels" and "... from alias column when configured column value is blank"
  it("reads a field from its label, else its usual headers: the first the file has, for every row", async () => {
    const labels = {
      date_col_label: "date*",
      amount_col_label: "amount*",
      name_col_label: "name",
      account_col_label: "account",
      date_format: "%Y-%m-%d",
    } as const;
    const legacy = await read("TransactionImport", "date,account_name,amount,name\n2024-05-15,Checking Account,42.50,Legacy Export Row", {
      ...labels,
      signage_convention: "inflows_negative",
    });
    expect(legacy.rows[0]?.errors).toEqual([]);
    expect(legacy.rows[0]?.values).toMatchObject({ account: "Checking Account", date: "2024-05-15", amount_cents: 4250n });
    // The file has the labelled column: its blank cell stays blank (Sure's csv_value would take the
    // next header's cell, row by row; a blank Amount so took the Balance).
    const fallback = await read("TransactionImport", "date*,account,account_name,amount,name\n2024-05-15,,Checking Account,42.50,Row", labels);
    expect(fallback.rows[0]?.fields.account).toBe("");
    const posted = await read("TransactionImport", "Posted,Amount,Description\n2024-05-15,1,Coffee", {
      date_col_label: "posted",
      name_col_label: "description",
      date_format: "%Y-%m-%d",
    });
    expect(posted.rows[0]?.values).toMatchObject({ date: "2024-05-15", name: "Coffee" });
  });

  // Sure's transaction_import_test.rb "rejects duplicate normalized CSV headers"
  it("refuses headers that normalise alike", async () => {
    const result = await read("TransactionImport", "date,date*,amount,name\n2024-05-15,2024-05-16,42.50,Duplicate Date Row", { date_format: "%Y-%m-%d" });
    expect(result.rows).toEqual([]);
    expect(result.errors).toEqual([{ code: "duplicate_headers", message: "CSV headers normalize to duplicate columns: date, date*" }]);
  });

  it("reads two-digit years written with dots (28.03.18), and names the format when a year is short for %Y", async () => {
    const csv = ["date,amount,name", "28.03.18,-12.50,Bakery", "01.01.69,1,Old"].join("\n");
    const dotted = (await read("TransactionImport", csv, { date_format: "%d.%m.%y" })).rows;
    expect(dotted.map((row) => row.values?.date ?? row.errors)).toEqual([
      "2018-03-28",
      [{ field: "date", message: `Date must be between 1996-05-01 and ${TODAY}` }],
    ]);
    const long = (await read("TransactionImport", csv, { date_format: "%d.%m.%Y" })).rows;
    expect(long[0]?.errors).toEqual([
      { field: "date", message: "Date must exactly match the format: %d.%m.%Y (its year has fewer than four digits; a two-digit year reads with %d.%m.%y)" },
    ]);
  });

  it("reads each field from one column for the whole file: a blank amount is invalid, never the Balance column's figure", async () => {
    // A bank statement: a credit leaves Amount blank in this layout, the running balance beside it.
    const csv = ["Date,Description,Amount,Balance", "2024-03-01,Salary,,8029.49", "2024-03-02,Coffee,-3.50,8025.99"].join("\n");
    const rows = (await read("TransactionImport", csv, { date_format: "%Y-%m-%d", amount_col_label: "Amount", name_col_label: "Description" })).rows;
    expect(rows.map((row) => row.errors)).toEqual([[{ field: "amount", message: "Amount is required" }], []]);
    expect(rows.map((row) => row.fields.amount)).toEqual(["", "-3.50"]);
    // With no Amount column at all, the file's Balance column is its amount (Sure's alias), for every row.
    const aliased = (await read("AccountImport", ["name,balance", "Savings,", "Checking,10"].join("\n"), {})).rows;
    expect(aliased.map((row) => row.fields.amount)).toEqual(["", "10"]);
  });

  // Sure's import_interface_test.rb "can submit configuration that results in invalid rows for user to fix later"
  it("keeps invalid rows with errors naming their fields", async () => {
    const csv = [
      "date,amount,name,currency,notes",
      "01/01/2024,1234.56,Wrong format,USD,",
      "2024-02-30,12,Not a day,USD,",
      "1990-01-01,12,Too old,USD,",
      "2027-01-01,12,Future,USD,",
      "2024-01-01,,No amount,USD,",
      "2024-01-01,12a3,Bad amount,USD,",
      "2024-01-01,1.234,Too precise,JPY,",
      "2024-01-01,12,Bad currency,ZZZ,",
      `,12,${"n".repeat(501)},USD,${"x".repeat(10_001)}`,
    ].join("\n");
    const rows = (await read("TransactionImport", csv, { date_format: "%Y-%m-%d" })).rows;
    expect(rows.map((row) => row.errors)).toEqual([
      [{ field: "date", message: "Date must exactly match the format: %Y-%m-%d" }],
      [{ field: "date", message: "Date must exactly match the format: %Y-%m-%d" }],
      [{ field: "date", message: `Date must be between 1996-05-01 and ${TODAY}` }],
      [{ field: "date", message: `Date must be between 1996-05-01 and ${TODAY}` }],
      [{ field: "amount", message: "Amount is required" }],
      [{ field: "amount", message: "Amount is not a number in the format 1,234.56" }],
      [{ field: "amount", message: "Amount has more decimals than JPY allows (0)" }],
      [{ field: "currency", message: "Currency is not a valid currency code" }],
      [
        { field: "date", message: "Date is required" },
        { field: "name", message: "Name is too long (maximum is 500 characters)" },
        { field: "notes", message: "Notes is too long (maximum is 10000 characters)" },
      ],
    ]);
    expect(rows.every((row) => row.values === null)).toBe(true);
    expect(rows[0]?.fields.date).toBe("01/01/2024");
  });

  // Sure's transaction_import_test.rb "parses legacy comma tags and escaped pipe tags"
  it("splits tags on commas, else on pipes, with backslash escapes", async () => {
    expect(tagsListOf("groceries,essentials")).toEqual(["groceries", "essentials"]);
    expect(tagsListOf("Food\\, Dining,essentials")).toEqual(["Food, Dining", "essentials"]);
    expect(tagsListOf("Food\\|Dining")).toEqual(["Food|Dining"]);
    expect(tagsListOf("Food\\|Dining|essentials")).toEqual(["Food|Dining", "essentials"]);
    expect(tagsListOf(" a | b ")).toEqual(["a", "b"]);
    expect(tagsListOf("")).toEqual([""]);
  });

  // Sure's transaction_import_test.rb "imports transactions, categories, tags, and accounts" (the mappings it creates)
  it("lists the distinct categories, tags and accounts to map, blank included", async () => {
    const csv = [
      "date,name,amount,category,tags,account,notes",
      "01/01/2024,Txn1,100,TestCategory1,TestTag1,TestAccount1,notes1",
      "01/02/2024,Txn2,200,TestCategory2,TestTag1|TestTag2,TestAccount2,notes2",
      "01/03/2024,Txn3,300,,,,notes3",
    ].join("\n");
    const result = await read("TransactionImport", csv);
    expect(result.mappings).toEqual({
      accounts: ["TestAccount1", "TestAccount2", ""],
      categories: ["TestCategory1", "TestCategory2", ""],
      tags: ["TestTag1", "TestTag2", ""],
      account_types: [],
    });
    expect(result.rows[1]?.values?.tags).toEqual(["TestTag1", "TestTag2"]);
    expect((await read("TransactionImport", csv, {}, { hasAccount: true })).mappings.accounts).toEqual([]);
  });

  it("reports missing required headers once for the file and again on each row", async () => {
    const result = await read("TransactionImport", "name\nMissing Amount");
    expect(result.errors).toEqual([{ code: "missing_required_headers", message: "Missing required columns: date, amount" }]);
    expect(result.rows[0]?.errors.map((error) => error.message)).toEqual(["Date is required", "Amount is required"]);
  });
});

// ------------------------------------------------------------------------------------ other row types

describe("cells guarded by Hearth's export against formula injection", () => {
  it("read back as the text they were: the quote before = + - @ comes off, any other quote stays", async () => {
    const csv = [
      "date,amount,name,category,tags,notes",
      `2024-01-05,-12.50,"'=HYPERLINK(""x"")",'-Refunds,"'@home,Gifts",'@cmd`,
      "2024-01-06,-3,'Quoted,'x,,'",
    ].join("\n");
    const { rows } = await read("TransactionImport", csv, { date_format: "%Y-%m-%d" });
    expect(rows[0]?.values).toMatchObject({ name: '=HYPERLINK("x")', category: "-Refunds", tags: ["@home", "Gifts"], notes: "@cmd" });
    expect(rows[1]?.values).toMatchObject({ name: "'Quoted", category: "'x" });
    expect((await read("CategoryImport", "name,color,parent_category\n'-Refunds,,'=Parent")).rows[0]?.values).toMatchObject({
      name: "-Refunds",
      parent: "=Parent",
    });
    expect((await read("MerchantImport", "name\n'+1 Shop")).rows[0]?.values).toMatchObject({ name: "+1 Shop" });
  });
});

describe("trade, account, category, merchant and rule rows", () => {
  // Sure's trade_import_test.rb "generates rows from legacy quantity header with template labels"; import_interface_test.rb "handles trade-specific fields"
  it("reads trades with qty, price and amount signed per the convention", async () => {
    const csv =
      "date,ticker,quantity,price,account_name,exchange_operating_mic\n2024-05-15,AAPL,10,150.00,Trading Account,\n2024-05-16,GOOGL,-5,123.456,Trading Account,xnas";
    const labels = { date_col_label: "date*", ticker_col_label: "ticker*", qty_col_label: "qty*", price_col_label: "price*", date_format: "%Y-%m-%d" } as const;
    const positive = (await read("TradeImport", csv, { ...labels, signage_convention: "inflows_positive" })).rows;
    expect(positive[0]?.fields).toMatchObject({ qty: "10", price: "150.00", account: "Trading Account" });
    expect(positive.map((row) => row.values)).toEqual([
      expect.objectContaining({
        qty: "10",
        price: "150",
        amount_cents: 150000n,
        investment_activity_label: "Buy",
        exchange_operating_mic: null,
        name: "Imported item",
      }),
      expect.objectContaining({ qty: "-5", price: "123.456", amount_cents: -61728n, investment_activity_label: "Sell", exchange_operating_mic: "XNAS" }),
    ]);
    const negative = (await read("TradeImport", csv, { ...labels, signage_convention: "inflows_negative" })).rows;
    expect(negative.map((row) => [row.values?.qty, row.values?.amount_cents, row.values?.investment_activity_label])).toEqual([
      ["-10", -150000n, "Sell"],
      ["5", 61728n, "Buy"],
    ]);
  });

  it("refuses trades without ticker, qty or price, and rounds their decimals to the columns' scales", async () => {
    const rows = (
      await read("TradeImport", "date,ticker,qty,price\n2024-05-15,,,\n2024-05-15,BTC,0.123456789,-1\n2024-05-15,ETH,0.123456789,1.00000000005", {
        date_format: "%Y-%m-%d",
      })
    ).rows;
    expect(rows[0]?.errors.map((error) => error.message)).toEqual(["Ticker is required", "Qty is required", "Price is required"]);
    expect(rows[1]?.errors.map((error) => error.message)).toEqual(["Price must not be negative"]);
    expect(rows[2]?.values).toMatchObject({ qty: "0.12345679", price: "1.0000000001", amount_cents: 12n });
  });

  it("reads accounts from Sure's own template", async () => {
    const csv =
      "Account type*,Name*,Balance*,Currency,Balance Date\nChecking,Main Checking Account,1000.00,USD,2024-01-01\nCredit Card,Rewards Card,-500.00,,\n";
    const result = await read("AccountImport", csv, { date_format: "%Y-%m-%d" }, { defaultCurrency: "EUR" });
    expect(result.errors).toEqual([]);
    expect(result.rows.map((row) => row.values)).toEqual([
      { account_type: "Checking", name: "Main Checking Account", balance: "1000.00", balance_cents: 100000n, currency: "USD", balance_date: "2024-01-01" },
      { account_type: "Credit Card", name: "Rewards Card", balance: "-500.00", balance_cents: -50000n, currency: "EUR", balance_date: null },
    ]);
    expect(result.mappings.account_types).toEqual(["Checking", "Credit Card"]);
  });

  // Sure's category_import_test.rb "imports categories from Sure export" and "accepts required headers with an asterisk suffix"
  it("reads categories and checks colour, icon, classification and parent", async () => {
    const csv = [
      "name*,color,parent_category,icon,classification",
      "Food & Drink,#f97316,,carrot,expense",
      "Groceries,#407706,Food & Drink,shopping-basket,",
      "Bad,orange,,Not An Icon,savings",
      "Loop,,Loop,,",
    ].join("\n");
    const rows = (await read("CategoryImport", csv)).rows;
    expect(rows[0]?.values).toEqual({ name: "Food & Drink", color: "#f97316", parent: null, icon: "carrot", classification: "expense" });
    expect(rows[1]?.values).toEqual({ name: "Groceries", color: "#407706", parent: "Food & Drink", icon: "shopping-basket", classification: null });
    expect(rows[2]?.errors.map((error) => error.field)).toEqual(["category_color", "category_icon", "category_classification"]);
    expect(rows[3]?.errors).toEqual([{ field: "category_parent", message: "Category 'Loop' cannot be its own parent" }]);
  });

  it("reads merchants", async () => {
    const rows = (await read("MerchantImport", "name*,color,website_url\nCoffee Shop,#e99537,https://coffeeshop.com\nBookstore,,\n,#ffffff,")).rows;
    expect(rows.map((row) => row.values)).toEqual([
      { name: "Coffee Shop", color: "#e99537", website_url: "https://coffeeshop.com" },
      { name: "Bookstore", color: null, website_url: null },
      null,
    ]);
    expect(rows[2]?.errors).toEqual([{ field: "name", message: "Name is required" }]);
  });

  // Sure's rule_import_test.rb "imports rules from CSV" (its CSV's JSON quotes are not doubled) and "imports compound conditions with sub-conditions"
  it("reads rules, re-assembling JSON whose quotes a spreadsheet left undoubled", async () => {
    const csv = [
      "name,resource_type,active,effective_date,conditions,actions",
      '"Categorize groceries","transaction",true,2024-01-01,"[{"condition_type":"transaction_name","operator":"like","value":"grocery"}]","[{"action_type":"set_transaction_category","value":"Groceries"}]"',
      '"Auto-categorize transactions","transaction",false,,"[{"condition_type":"transaction_amount","operator":">","value":"100"}]","[{"action_type":"auto_categorize"}]"',
      '"Complex rule","transaction",yes,,"[{""condition_type"":""compound"",""operator"":""or"",""sub_conditions"":[{""condition_type"":""transaction_name"",""operator"":""like"",""value"":""walmart""}]}]","[{""action_type"":""set_transaction_category"",""value"":""Groceries""}]"',
    ].join("\n");
    const rows = (await read("RuleImport", csv)).rows;
    expect(rows.map((row) => row.errors)).toEqual([[], [], []]);
    expect(rows[0]?.values).toEqual({
      name: "Categorize groceries",
      resource_type: "transaction",
      active: true,
      effective_date: "2024-01-01",
      conditions: [{ condition_type: "transaction_name", operator: "like", value: "grocery" }],
      actions: [{ action_type: "set_transaction_category", value: "Groceries" }],
    });
    expect(rows[1]?.values).toMatchObject({ active: false, effective_date: null, actions: [{ action_type: "auto_categorize" }] });
    expect(rows[2]?.values?.conditions[0]).toMatchObject({ condition_type: "compound", sub_conditions: [{ value: "walmart" }] });
  });

  it("refuses rules Sure refuses while publishing", async () => {
    const csv = [
      "name,resource_type,active,effective_date,conditions,actions",
      'A,account,true,,"[{""condition_type"":""transaction_name""}]","[{""action_type"":""auto_categorize""}]"',
      'B,transaction,true,someday,"[{oops","[]"',
      "C,transaction,true,,,",
    ].join("\n");
    const rows = (await read("RuleImport", csv)).rows;
    expect(rows[0]?.errors).toEqual([{ field: "resource_type", message: "Unsupported resource type: account" }]);
    expect(rows[1]?.errors.map((error) => error.message)).toEqual([
      "Effective date is not a valid date (YYYY-MM-DD)",
      expect.stringMatching(/^Invalid JSON in conditions: /),
      "Rule must have at least one action",
    ]);
    expect(rows[2]?.errors.map((error) => error.message)).toEqual(["Conditions is required", "Actions is required"]);
  });

  it("undoes a payload escaped once too often, and bounds nesting", async () => {
    expect(parseRuleJson('"[{\\"action_type\\":\\"auto_categorize\\"}]"', "actions")).toEqual({ ok: true, items: [{ action_type: "auto_categorize" }] });
    expect(parseRuleJson('"[{\\\\\\"value\\\\\\":\\\\\\"a\\\\u003eb\\\\\\"}]"', "actions")).toEqual({ ok: true, items: [{ value: "a>b" }] });
    expect(parseRuleJson(`[${"[".repeat(20)}${"]".repeat(20)}]`, "conditions")).toEqual({
      ok: false,
      message: "Conditions nest too deeply (at most 8 levels)",
    });
    expect(parseRuleJson('{"a":1}', "conditions")).toEqual({ ok: false, message: "Conditions must be a JSON array of objects" });
    const started = threadCpuMs();
    expect(parseRuleJson(`"${"\\".repeat(30_000)}x`, "actions").ok).toBe(false);
    expect(threadCpuMs() - started).toBeLessThan(1_000);
  });
});

// ------------------------------------------------------------------------------------ preflight

describe("preflight", () => {
  const valid = { date_col_label: "date", amount_col_label: "amount", name_col_label: "name" };

  // Sure's imports_controller_test.rb "should preflight CSV import without persisting records"
  it("answers headers, required headers and the row count of a valid file", async () => {
    const answer = await preflightCsvImport({ type: "TransactionImport", params: valid, content: "date,amount,name\n2023-01-01,-10.00,Test Transaction" });
    expect(ImportPreflightSchema.omit({ encoding: true }).parse(answer)).toEqual(answer);
    expect(answer).toEqual({
      type: "TransactionImport",
      valid: true,
      content: { filename: "import.csv", content_type: "text/csv", byte_size: 51 },
      stats: { rows_count: 1 },
      headers: ["date", "amount", "name"],
      required_headers: ["date", "amount"],
      missing_required_headers: [],
      errors: [],
      warnings: [],
    });
  });

  // Sure's "should report missing required CSV headers during preflight"
  it("names the missing required headers", async () => {
    const answer = await preflightCsvImport({ type: "TransactionImport", params: valid, content: "name\nMissing Amount" });
    expect(answer).toMatchObject({ valid: false, stats: { rows_count: 1 }, missing_required_headers: ["date", "amount"] });
    expect(answer.errors[0]?.code).toBe("missing_required_headers");
  });

  // Sure's "should apply rows_to_skip before CSV preflight header validation" and "should preflight semicolon separated CSV content"
  it("applies rows_to_skip and the separator before reading headers", async () => {
    const skipped = await preflightCsvImport({
      type: "TransactionImport",
      params: { rows_to_skip: 1, date_col_label: "posted", amount_col_label: "amount", name_col_label: "description" },
      content: "Generated by bank export\nposted,amount,description\n2024-01-01,-10.00,Coffee",
    });
    expect(skipped).toMatchObject({ valid: true, stats: { rows_count: 1 }, headers: ["posted", "amount", "description"], missing_required_headers: [] });
    const semicolons = await preflightCsvImport({
      type: "TransactionImport",
      params: { ...valid, col_sep: ";" },
      content: "date;amount;name\n2024-01-01;-10.00;Coffee",
    });
    expect(semicolons).toMatchObject({ valid: true, stats: { rows_count: 1 }, headers: ["date", "amount", "name"] });
  });

  // Sure's "should report invalid preflight CSV parser config without parsing" and "should report empty CSV preflight content as invalid"
  it("reports a bad configuration without reading the file, and a file without rows", async () => {
    const config = await preflightCsvImport({
      type: "TransactionImport",
      params: { ...valid, col_sep: "" },
      content: "date,amount,name\n2024-01-01,-10.00,Coffee",
    });
    expect(config).toMatchObject({ valid: false, stats: { rows_count: 0 }, headers: [] });
    expect(config.errors).toEqual([{ code: "validation_failed", message: "Col sep is not included in the list" }]);
    const empty = await preflightCsvImport({ type: "TransactionImport", params: valid, content: "date,amount,name\n" });
    expect(empty).toMatchObject({ valid: false, stats: { rows_count: 0 }, warnings: [] });
    expect(empty.errors[0]?.code).toBe("no_data_rows");
  });

  it("requires each type's own headers, satisfied by Sure's template names", async () => {
    const required = async (type: CsvImportType, content: string) => {
      const answer = await preflightCsvImport({ type, params: {}, content });
      return [answer.required_headers, answer.missing_required_headers];
    };
    expect(await required("TradeImport", "date*,ticker*,exchange_operating_mic,currency,qty*,price*\n")).toEqual([["date", "ticker", "qty", "price"], []]);
    expect(await required("AccountImport", "Account type*,Name*,Balance*\n")).toEqual([["name", "amount"], []]);
    expect(await required("CategoryImport", "title\n")).toEqual([["name"], ["name"]]);
    expect(await required("RuleImport", "name,resource_type*,active,effective_date,conditions*,actions*\n")).toEqual([
      ["resource_type", "conditions", "actions"],
      [],
    ]);
  });

  it("rejects malformed CSV with invalid_csv, as a 422", async () => {
    expect((await parseErrorOf(() => preflightCsvImport({ type: "TransactionImport", params: valid, content: 'date,amount\n"2024' }))).code).toBe(
      "invalid_csv",
    );
  });

  it("maps a parsed table the same way as reading the content", async () => {
    const table = await parseCsvTable("date,amount\n01/01/2024,5", { colSep: "," });
    expect((await mapCsvImport("TransactionImport", table, contextOf())).rows[0]?.values?.amount_cents).toBe(-500n);
  });
});
