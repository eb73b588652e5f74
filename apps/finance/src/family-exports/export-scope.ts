import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";

/** What every part of an export reads with: one family, in batches of bounded size. */
export interface ExportScope {
  /** Reads inside the export's snapshot (a read-only, repeatable-read transaction). */
  db: FinanceTx;
  /** The family the caller verified; every query filters by it. */
  familyId: string;
  /** Rows per query: what the export holds in memory at a time, per part. */
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

/**
 * One query's rows a batch at a time, by keyset: `page` builds the query for the rows after the
 * last one seen (null at first), ordered by a unique key, at most `limit` rows. Only the current
 * batch is held; the next is read when the consumer asks for it (the archive's backpressure).
 */
export async function* keysetBatches<Row>(scope: ExportScope, part: string, page: (after: Row | null, limit: number) => Prisma.Sql): AsyncGenerator<Row[]> {
  let after: Row | null = null;
  for (;;) {
    const rows = await read(scope, () => scope.db.$queryRaw<Row[]>(page(after, scope.batchSize)));
    scope.onBatch?.(part, rows.length);
    if (rows.length > 0) yield rows;
    if (rows.length < scope.batchSize) return;
    after = rows[rows.length - 1]!;
  }
}

/** Runs one query of the export, unless it has failed; remembers it as the one running. */
export function read<T>(scope: ExportScope, query: () => Promise<T>): Promise<T> {
  scope.signal.throwIfAborted();
  const running = query();
  scope.reading = running.catch(() => undefined);
  return running;
}

/** Counts `rows` toward `key` (a file name or an NDJSON record type). */
export function countRows(scope: ExportScope, key: string, rows: number): void {
  scope.tally[key] = (scope.tally[key] ?? 0) + rows;
}

/**
 * An account the export carries: every status but pending_deletion (an account being removed,
 * gone from every list already; Sure has no such state to import it into). `alias` is the
 * accounts row's alias in the query.
 */
export const exportedAccount = (alias: string, familyId: string): Prisma.Sql =>
  Prisma.sql`${Prisma.raw(alias)}.family_id = ${familyId}::uuid AND ${Prisma.raw(alias)}.status <> 'pending_deletion'`;

/** A keyset condition on (date, id), both text as the rows carry them, or nothing for the first page. */
export const afterDateAndId = (alias: string, after: { date: string; id: string } | null): Prisma.Sql =>
  after === null ? Prisma.empty : Prisma.sql`AND (${Prisma.raw(alias)}.date, ${Prisma.raw(alias)}.id) > (${after.date}::date, ${after.id}::uuid)`;

/** A keyset condition on id, or nothing for the first page. */
export const afterId = (column: string, after: { id: string } | null): Prisma.Sql =>
  after === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} > ${after.id}::uuid`;
