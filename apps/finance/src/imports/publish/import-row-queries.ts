import type { FinanceTx } from "../../db";

/** The import's rows in file order, each with its values (null: a row that did not pass its checks). */
export function importRows(tx: FinanceTx, importId: string) {
  return tx.importRow.findMany({ where: { importId }, select: { rowNumber: true, values: true }, orderBy: { rowNumber: "asc" } });
}

/** The values of the import's rows in file order (null: a row that did not pass its checks). */
export function importRowValues(tx: FinanceTx, importId: string) {
  return tx.importRow.findMany({ where: { importId }, select: { values: true }, orderBy: { rowNumber: "asc" } });
}
