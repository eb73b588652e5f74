import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";

/** What every part of an export reads with: one family, in batches of bounded size. */
export interface ExportScope {
  /** Reads inside the export's snapshot (a read-only, repeatable-read transaction). */
  db: FinanceTx;
  /** The family the caller verified; every query filters by it. */
  familyId: string;
  /** Rows per query: what the export holds in memory at a time. */
  batchSize: number;
  /** Rows written per CSV file and records per NDJSON type, filled in as the parts stream. */
  tally: Record<string, number>;
  /** Aborted when the export fails: no part reads another batch after that. */
  signal: AbortSignal;
  /** The query running now, settled or not (never rejecting): a failed export waits for it before its transaction ends. */
  reading: Promise<unknown> | null;
  /** Told of every batch read (which part, how many rows): lets a caller see the reads stay bounded. */
  onBatch?: (part: string, rows: number) => void;
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

/** A batch of rows as text: their lines joined, and how many. */
export interface TextBatch {
  text: string;
  rows: number;
}

export interface TextPage {
  /**
   * The next rows: a query selecting the keyset key as text columns k0, k1… (their order is the
   * rows' order) and whatever `line` reads, ordered by the key and limited. Its alias is `r`.
   */
  rows: Prisma.Sql;
  /** One row's text, from the columns of `r`. */
  line: Prisma.Sql;
}

/**
 * Rows of one keyset-paginated query a batch at a time, as text the database writes: `page`
 * builds the query for the rows after the key of the last one (null at first), each batch is
 * one string of its lines joined by `separator`. Only the current batch is held; the next is
 * read when the consumer asks for it (the archive's backpressure).
 */
export async function* textBatches(
  scope: ExportScope,
  part: string,
  keyColumns: number,
  separator: "" | "\n",
  page: (after: string[] | null, limit: number) => TextPage,
): AsyncGenerator<TextBatch> {
  const keys = Array.from({ length: keyColumns }, (_, i) => `r.k${i}`);
  const ascending = Prisma.raw(keys.join(", "));
  const descending = keys.map((key) => `${key} DESC`).join(", ");
  const lastKey = Prisma.raw(keys.map((key, i) => `(array_agg(${key} ORDER BY ${descending}))[1] AS k${i}`).join(", "));
  let after: string[] | null = null;
  for (;;) {
    const { rows, line } = page(after, scope.batchSize);
    const [batch] = await read(scope, () =>
      scope.db.$queryRaw<({ text: string | null; rows: number } & Record<string, string | null>)[]>(Prisma.sql`
        SELECT string_agg(${line}, ${separator} ORDER BY ${ascending}) AS text, count(*)::int AS rows, ${lastKey}
          FROM (${rows}) r`),
    );
    const count = batch?.rows ?? 0;
    scope.onBatch?.(part, count);
    if (count > 0) yield { text: batch!.text ?? "", rows: count };
    if (count < scope.batchSize) return;
    after = keys.map((_, i) => batch![`k${i}`] ?? "");
  }
}

/**
 * An account the export carries: every status but pending_deletion (an account being removed,
 * gone from every list already; Sure has no such state to import it into).
 */
export const exportedAccount = (alias: string, familyId: string): Prisma.Sql =>
  Prisma.sql`${Prisma.raw(alias)}.family_id = ${familyId}::uuid AND ${Prisma.raw(alias)}.status <> 'pending_deletion'`;

/** Keyset on (date, id) of `alias`, after the key [date, id] (nothing for the first page). */
export const afterDateAndId = (alias: string, after: string[] | null): Prisma.Sql =>
  after === null ? Prisma.empty : Prisma.sql`AND (${Prisma.raw(alias)}.date, ${Prisma.raw(alias)}.id) > (${after[0]}::date, ${after[1]}::uuid)`;

/** Keyset on an id column, after the key [id]. */
export const afterId = (column: string, after: string[] | null): Prisma.Sql =>
  after === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} > ${after[0]}::uuid`;

/** Keyset on a text column unique in the family (a name), after the key [name]. */
export const afterText = (column: string, after: string[] | null): Prisma.Sql =>
  after === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} > ${after[0]}`;
