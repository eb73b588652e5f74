import type { FinanceTx } from "../../../db";
import { risingIdOfOrdinalZero } from "../sure-import-queries";

/** Rows per INSERT: the publish reports progress between them. */
export const WRITE_BATCH = 5_000;

/** The kinds of record the file's source ids name, each mapped to the row it became. */
export type MappedKind = "accounts" | "categories" | "tags" | "merchants" | "transactions" | "budgets";

/** Source id → new id, per kind (Sure's @id_mappings). */
export class SourceIdMap {
  private readonly maps = new Map<MappedKind, Map<string, string>>();

  set(kind: MappedKind, sourceId: string, id: string): void {
    let map = this.maps.get(kind);
    if (!map) this.maps.set(kind, (map = new Map()));
    map.set(sourceId, id);
  }

  get(kind: MappedKind, sourceId: string | null): string | null {
    return sourceId === null ? null : (this.maps.get(kind)?.get(sourceId) ?? null);
  }

  /** The new id, which the reader guaranteed: every reference names a record of the file. */
  required(kind: MappedKind, sourceId: string, line: number): string {
    const id = this.get(kind, sourceId);
    if (id === null) throw new Error(`line ${line}: ${kind} source id ${sourceId} was not mapped`);
    return id;
  }
}

/** What every step of a SureImport publish writes with. */
export interface SurePublishContext {
  tx: FinanceTx;
  familyId: string;
  importId: string;
  /** A new id, rising with each call (UUIDv7, as the rows Prisma makes). */
  newId: () => string;
  ids: SourceIdMap;
  /** `lines` more NDJSON lines are done: progress is reported. */
  linesDone: (lines: number) => Promise<void>;
}

/**
 * Ids made here rather than in SQL, so later records can name them: risingIds' prefix (the time
 * and random bits of a UUIDv7) with a counter after it, as risingIds appends a row's ordinal.
 */
export async function idSource(tx: FinanceTx): Promise<() => string> {
  const prefix = (await risingIdOfOrdinalZero(tx)).slice(0, -8);
  let next = 0;
  return () => `${prefix}${(++next).toString(16).padStart(8, "0")}`;
}

/** Writes records a batch at a time (one record, one NDJSON line), reporting each batch as done. */
export async function inBatches<T>(context: SurePublishContext, records: readonly T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < records.length; start += WRITE_BATCH) {
    const batch = records.slice(start, start + WRITE_BATCH);
    await write(batch);
    await context.linesDone(batch.length);
  }
}

/** Rows a batch at a time, for what is no NDJSON line of its own (opening balances, tags of transactions). */
export function* chunksOf<T>(rows: readonly T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += WRITE_BATCH) yield rows.slice(start, start + WRITE_BATCH);
}

/** A column of a batch for unnest: bigints as decimal text (cast to bigint[] in SQL). */
export const column = <T, V>(rows: readonly T[], pick: (row: T) => V): V[] => rows.map(pick);
export const centsColumn = <T>(rows: readonly T[], pick: (row: T) => bigint | null): (string | null)[] =>
  rows.map((row) => {
    const cents = pick(row);
    return cents === null ? null : cents.toString();
  });
