import type { Prisma } from "../generated/prisma/client";
import { recordSql, type JsonField } from "./export-format-sql";
import { textLines, type ExportScope } from "./export-scope";

/** The records of one type in all.ndjson, each a line ending in "\n", streamed. */
export interface RecordSection {
  type: string;
  lines: (scope: ExportScope) => AsyncGenerator<string | Buffer>;
}

/**
 * A section whose records the database writes: `rows` is the ordered query of them, `data` the
 * record's fields as named SQL expressions over its columns (`r`), in Sure's order.
 */
export const recordSection = (type: string, rows: (scope: ExportScope) => Prisma.Sql, data: Record<string, JsonField>): RecordSection => ({
  type,
  lines: (scope) => textLines(scope, `all.ndjson:${type}`, rows(scope), recordSql(type, data)),
});
