import { NEEDS_FORMULA_GUARD } from "../../family-exports/csv-cell";

/**
 * A text cell as it was before Hearth's export guarded it against formula injection (csvText:
 * "'=SUM(A1)" for "=SUM(A1)", "''x" for "'x"), so an exported CSV imports back as the same names
 * and notes. The quote comes off only where the export puts one; any other text is read as it is.
 */
export function unguardedText(cell: string): string {
  return cell.startsWith("'") && NEEDS_FORMULA_GUARD.test(cell.slice(1)) ? cell.slice(1) : cell;
}
