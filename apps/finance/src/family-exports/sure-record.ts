/** One line of Sure's all.ndjson: a record type and its data (rules also carry their schema version). */
export interface SureRecord {
  type: string;
  version?: number;
  data: Record<string, unknown>;
}

/** A part of all.ndjson: the records of one type, a batch at a time. */
export type RecordSection = AsyncGenerator<SureRecord[]>;
