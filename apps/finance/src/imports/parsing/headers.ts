/** Sure's normalize_header: trimmed, lower case, no "*", runs of spaces and hyphens as "_" ("Date*" and "date" are one column). */
export function normalizeHeader(header: string): string {
  // Trimmed again after "*" goes, so "Amount *" is "amount" (Sure would read "amount_").
  return header
    .trim()
    .toLowerCase()
    .replaceAll("*", "")
    .trim()
    .replace(/[ \t\r\n\f\v-]+/g, "_");
}

/** Where each normalised header is, and the headers that normalise alike (which make a file ambiguous). */
export interface HeaderIndex {
  positions: Map<string, number>;
  /** Cells in the header row. */
  width: number;
  /** Groups of different headers that normalise to one name, e.g. ["date", "date*"]. */
  duplicates: string[][];
}

/**
 * Sure's normalized_csv_headers: blank headers are no column; the same header written twice
 * reads the first; different headers that normalise alike are an error (see duplicateHeadersMessage).
 */
export function indexHeaders(headers: readonly string[]): HeaderIndex {
  const positions = new Map<string, number>();
  const originals = new Map<string, string[]>();
  headers.forEach((header, position) => {
    const key = normalizeHeader(header);
    if (key === "") return;
    if (!positions.has(key)) positions.set(key, position);
    const seen = originals.get(key) ?? [];
    if (!seen.includes(header)) seen.push(header);
    originals.set(key, seen);
  });
  return { positions, width: headers.length, duplicates: [...originals.values()].filter((group) => group.length > 1) };
}

/** Sure's duplicate_headers message. */
export function duplicateHeadersMessage(duplicates: string[][]): string {
  return `CSV headers normalize to duplicate columns: ${duplicates.map((group) => group.join(", ")).join("; ")}`;
}

/** The position of the first candidate header the file has (a label, then the usual names), or undefined. */
export function headerPosition(index: HeaderIndex, candidates: readonly (string | null)[]): number | undefined {
  for (const candidate of candidates) {
    if (candidate === null || candidate.trim() === "") continue;
    const position = index.positions.get(normalizeHeader(candidate));
    if (position !== undefined) return position;
  }
  return undefined;
}

/**
 * The row's cell under the first candidate header the file has (a configured label first, then
 * the usual names), or null when that cell is blank or the file has none of them. The column is
 * chosen per file, never per cell: Sure's csv_value takes the first candidate whose cell is not
 * blank, so a row with a blank Amount took its Balance (a credit of 2,000 on a bank statement
 * became an expense of 8,029.49, and preflight called it valid).
 */
export function cellOf(record: readonly string[], index: HeaderIndex, candidates: readonly (string | null)[]): string | null {
  const position = headerPosition(index, candidates);
  const value = position === undefined ? undefined : record[position];
  return value === undefined || value === "" ? null : value;
}
