/** A problem of one line of the file: the line (1 for the first; 0 for the file as a whole), Sure's code for it, and Sure's message. */
export interface NdjsonProblem {
  line: number;
  code: string;
  message: string;
}

/** Longest value quoted into a message: a message names the culprit without repeating a hostile line. */
const MAX_QUOTED = 100;

/** A value as Ruby's inspect quotes it in Sure's messages ("\"missing-account\""), clipped. */
export function inspect(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);
}

/**
 * Problems as they are found, of which the first `limit` are kept (a file of a hundred thousand
 * broken lines is reported, not held); `total` counts them all.
 */
export class ProblemList {
  private readonly kept: NdjsonProblem[] = [];
  total = 0;

  constructor(private readonly limit: number) {}

  add(line: number, code: string, message: string): void {
    this.total++;
    if (this.kept.length < this.limit) this.kept.push({ line, code, message });
  }

  /** The kept problems by line (those of one line in the order found). */
  byLine(): NdjsonProblem[] {
    return [...this.kept].sort((a, b) => a.line - b.line);
  }
}
