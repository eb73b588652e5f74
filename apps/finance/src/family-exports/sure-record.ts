import type { Prisma } from "../generated/prisma/client";
import { textBatches, type ExportScope, type TextBatch } from "./export-scope";
import { recordSql } from "./sql-format";

/** The records of one type in all.ndjson, a batch of lines (joined by "\n") at a time. */
export interface RecordSection {
  type: string;
  batches: (scope: ExportScope) => AsyncGenerator<TextBatch>;
}

/**
 * A section whose records the database writes: `rows` is the keyset query (see TextPage, keyed
 * by `keyColumns` columns k0…), `data` the record's fields as named SQL expressions over `r`, in
 * Sure's order.
 */
export const recordSection = (
  type: string,
  keyColumns: number,
  rows: (scope: ExportScope, after: string[] | null, limit: number) => Prisma.Sql,
  data: Prisma.Sql,
): RecordSection => ({
  type,
  batches: (scope) =>
    textBatches(scope, `all.ndjson:${type}`, keyColumns, "\n", (after, limit) => ({ rows: rows(scope, after, limit), line: recordSql(type, data) })),
});
