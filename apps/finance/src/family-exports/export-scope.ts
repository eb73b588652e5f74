import type { FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import type { CopySource } from "./copy-source";
import { selectOverRows } from "./export-rows-sql";

/** What every part of an export reads with: one family, in one snapshot, a bounded amount at a time. */
export interface ExportScope {
  /** Prisma reads inside the export's snapshot (a read-only, repeatable-read transaction): the rules. */
  db: FinanceTx;
  /** COPY reads in the same snapshot: every file's rows but the rules. */
  copy: CopySource;
  /** The family the caller verified; every query filters by it. */
  familyId: string;
  /** Rules per Prisma query: what the export holds of them at a time. */
  batchSize: number;
  /** Rows written per CSV file and records per NDJSON type, filled in as the parts stream. */
  tally: Record<string, number>;
  /** Aborted when the export fails: no part reads another batch after that. */
  signal: AbortSignal;
  /** The query running now, settled or not (never rejecting): a failed export waits for it before its transaction ends. */
  reading: Promise<unknown> | null;
  /** Told of every piece read (which part): a COPY chunk or a batch of rules; lets a caller see the reads stream. */
  onRead?: ((part: string) => void) | undefined;
}

/** Runs one query of the export, unless it has failed; remembers it as the one running. */
export function read<T>(scope: ExportScope, query: () => Promise<T>): Promise<T> {
  scope.signal.throwIfAborted();
  const running = query();
  scope.reading = running.catch(() => undefined);
  return running;
}

/** Counts `rows` toward `key` (a file name or "all.ndjson:<record type>"). */
export function countRows(scope: ExportScope, key: string, rows: number): void {
  scope.tally[key] = (scope.tally[key] ?? 0) + rows;
}

/**
 * A CSV file's data rows: `cells` (text expressions over the columns of `r`, formatted as Sure
 * writes them) of each row of `rows`, an ordered query, streamed as COPY writes them.
 */
export async function* csvRows(scope: ExportScope, part: string, rows: Prisma.Sql, cells: Prisma.Sql[]): AsyncGenerator<Buffer> {
  countRows(scope, part, yield* scope.copy.rows(part, selectOverRows(rows, cells), "csv"));
}

/** Lines of text (`line`, an expression over the columns of `r`), each followed by "\n", one per row of `rows`, an ordered query. */
export async function* textLines(scope: ExportScope, part: string, rows: Prisma.Sql, line: Prisma.Sql): AsyncGenerator<Buffer> {
  countRows(scope, part, yield* scope.copy.rows(part, selectOverRows(rows, [line]), "lines"));
}
