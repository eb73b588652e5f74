import type { CsvImportType, ImportRowFields } from "@hearth/contracts";
import { fieldHeaders, type SureRowField } from "./field-headers";
import { unguardedText } from "./formula-guard";
import { cellOf } from "./headers";
import { parseDecimal } from "./number-format";
import { emptyFields, type RowContext, type SourceRow } from "./row-types";

/** Sure's default_row_name. */
export const DEFAULT_ROW_NAME = "Imported item";

export type SureCells = Record<Exclude<SureRowField, "debit" | "credit">, string> & { currencyFromFile: boolean };

/**
 * The cells Sure's generate_rows_from_csv reads for transaction, trade and account imports:
 * each from the first of its headers whose cell is not blank, "" when none; a missing currency
 * is the default one and a missing name "Imported item". Text cells lose the quote Hearth's
 * export puts before a formula (unguardedText).
 */
export function readSureCells(row: SourceRow, context: RowContext, type: CsvImportType): SureCells {
  const read = (field: SureRowField) => cellOf(row.record, row.index, fieldHeaders(field, context.config, type));
  const currency = read("currency");
  return {
    account: unguardedText(read("account") ?? ""),
    date: read("date") ?? "",
    qty: read("qty") ?? "",
    ticker: unguardedText(read("ticker") ?? ""),
    exchange_operating_mic: read("exchange_operating_mic") ?? "",
    price: read("price") ?? "",
    amount: read("amount") ?? "",
    currency: currency ?? context.defaultCurrency,
    currencyFromFile: currency !== null,
    name: unguardedText(read("name") ?? DEFAULT_ROW_NAME),
    category: unguardedText(read("category") ?? ""),
    tags: unguardedText(read("tags") ?? ""),
    entity_type: read("entity_type") ?? "",
    notes: unguardedText(read("notes") ?? ""),
  };
}

/**
 * The row as Sure's import_rows store it: cells as read, numbers normalised ("1234.56", "" when
 * no number), as the row diagnostics show them. `numbers` are the normalised amount, qty and price.
 */
export function sureFieldsOf(cells: SureCells, numbers: { amount: string; qty: string; price: string }): ImportRowFields {
  return {
    ...emptyFields(),
    account: cells.account,
    date: cells.date,
    qty: numbers.qty,
    ticker: cells.ticker,
    exchange_operating_mic: cells.exchange_operating_mic,
    price: numbers.price,
    amount: numbers.amount,
    currency: cells.currency,
    name: cells.name,
    category: cells.category,
    tags: cells.tags,
    entity_type: cells.entity_type,
    notes: cells.notes,
  };
}

/** A number cell normalised without reporting (for fields a type shows but does not use). */
export function quietNumber(cell: string, context: RowContext): string {
  const parsed = parseDecimal(cell, context.config.number_format);
  return parsed.ok ? parsed.decimal : "";
}
