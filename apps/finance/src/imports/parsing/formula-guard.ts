import { FORMULA_TRIGGERS } from "../../family-exports/csv-cell";

/**
 * A text cell as it was before Hearth's export guarded it against formula injection (csvText:
 * "'=SUM(A1)" for "=SUM(A1)"), so an exported CSV imports back as the same names and notes. Only
 * a quote before a formula trigger is taken off; any other text is read as it is.
 */
export function unguardedText(cell: string): string {
  return cell.length > 1 && cell[0] === "'" && FORMULA_TRIGGERS.includes(cell[1]!) ? cell.slice(1) : cell;
}
