import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import type { Prisma } from "../generated/prisma/client";

/**
 * How COPY writes a row: "csv" is PostgreSQL's CSV, which is Ruby's CSV.generate (Sure's
 * exporter): cells joined by ",", a row ended by "\n", a cell quoted when it holds a comma, a
 * quote, CR or LF (quotes doubled), NULL an empty cell and "" a quoted empty one. "lines" is one
 * text column written as it is and "\n": CSV with a quote and a delimiter no line of JSON holds
 * (JSON escapes every control character), so nothing is ever quoted.
 */
export type CopyFormat = "csv" | "lines";

const COPY_OPTIONS: Record<CopyFormat, string> = {
  csv: "FORMAT csv",
  lines: "FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e'",
};

/** A SQL value as a literal: COPY takes no bind parameters, so the few an export's queries carry (ids, codes, JSON) are quoted here. */
function literalOf(value: unknown, quote: (text: string) => string): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return quote(value);
  // Numbers in parentheses: a negative one after a minus sign would otherwise start a comment (--).
  if (typeof value === "bigint") return `(${value.toString()})`;
  if (typeof value === "number" && Number.isFinite(value)) return `(${String(value)})`;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  throw new TypeError(`a ${typeof value} cannot be written into a COPY query`);
}

/** The query's text with its values written in as literals (by pg's escapeLiteral). */
export function inlineSql(query: Prisma.Sql, quote: (text: string) => string): string {
  return query.strings.reduce((text, part, i) => text + literalOf(query.values[i - 1], quote) + part);
}

/** Reads rows out of the export's snapshot as COPY writes them. */
export interface CopySource {
  /**
   * The rows of `query` as COPY streams them, in the chunks they arrive: the next is read only
   * when the consumer asks for it (the socket waits meanwhile), so at most a chunk or two is held
   * however many rows there are. Returns how many rows there were.
   */
  rows(part: string, query: Prisma.Sql, format: CopyFormat): AsyncGenerator<Buffer, number>;
}

export interface OpenedCopySource extends CopySource {
  /** Ends the transaction and gives the connection back (dropped when `failed`: a COPY may be half read). */
  close(failed: boolean): Promise<void>;
}

export interface CopySourceOptions {
  /** Longest any one COPY may run (statement_timeout). */
  timeoutMs: number;
  /** Told of every chunk read (which part): instrumentation, tests. */
  onRead?: ((part: string) => void) | undefined;
}

/**
 * A connection of `pool` reading in the snapshot `snapshot` (pg_export_snapshot() of the export's
 * repeatable-read transaction, still open): what COPY reads agrees with what that transaction
 * reads, row for row.
 */
export async function openCopySource(pool: pg.Pool, snapshot: string, options: CopySourceOptions): Promise<OpenedCopySource> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    await client.query(`SET TRANSACTION SNAPSHOT ${client.escapeLiteral(snapshot)}`);
    // Each query reads a whole file's rows once: compiling it (JIT) costs more than it saves.
    await client.query("SET LOCAL jit = off");
    // Dates are written as date::text: ISO ("2026-03-05") whatever the server's default DateStyle.
    await client.query("SET LOCAL DateStyle = 'ISO, YMD'");
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`);
  } catch (error) {
    client.release(true);
    throw error;
  }
  const quote = (text: string) => client.escapeLiteral(text);
  let closed = false;
  return {
    async *rows(part, query, format) {
      const stream = copyTo(`COPY (${inlineSql(query, quote)}) TO STDOUT WITH (${COPY_OPTIONS[format]})`);
      // The row count arrives with the command's completion, after the last row: waited for. An
      // error (or the connection ending) settles the wait too, else it could wait forever.
      const submitted = stream as unknown as { handleReadyForQuery: () => void; handleError: (error: Error) => void };
      const reportError = submitted.handleError.bind(submitted);
      const completed = new Promise<void>((resolve) => {
        submitted.handleReadyForQuery = resolve;
        submitted.handleError = (error) => {
          resolve();
          reportError(error);
        };
      });
      client.query(stream);
      for await (const chunk of stream) {
        options.onRead?.(part);
        yield chunk as Buffer;
      }
      await completed;
      return stream.rowCount;
    },
    async close(failed) {
      if (closed) return;
      closed = true;
      if (failed) return client.release(true);
      try {
        await client.query("COMMIT");
        client.release();
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
  };
}
