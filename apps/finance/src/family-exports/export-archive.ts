import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pgPoolOf } from "@hearth/service-kit";
import type { FinanceDb, FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { accountsCsv } from "./accounts-csv-sql";
import { categoriesCsv } from "./categories-csv-sql";
import { openCopySource } from "./copy-source";
import type { ExportScope } from "./export-scope";
import { exportSnapshot, setReadOnly } from "./export-snapshot-queries";
import { ATTACHMENTS_JSON, VERSION_TXT } from "./fixed-files";
import { merchantsCsv } from "./merchants-csv-sql";
import { rulesCsv } from "./rules-csv";
import { sureNdjson } from "./sure-ndjson";
import { tradesCsv } from "./trades-csv-sql";
import { transactionsCsv } from "./transactions-csv-sql";
import { zipArchive } from "./zip-archive";

export interface FamilyExportOptions {
  /** Rules per query (default 5,000): the most of them held in memory at once. */
  batchSize?: number;
  /** Told of every piece read (which part): a COPY chunk or a batch of rules (instrumentation; tests). */
  onRead?: (part: string) => void;
  /** Longest the export's snapshot may stay open (default one hour); past it the export fails. */
  timeoutMs?: number;
  /** Run first in the export's transaction, before anything is read (the worker takes its build lock there); throwing stops the export. */
  beforeReading?: (tx: FinanceTx) => Promise<void>;
}

export interface FamilyExportResult {
  /** Bytes of the ZIP written to `out`. */
  bytes: number;
  /** Data rows per CSV file ("accounts.csv") and records per NDJSON type ("all.ndjson:Transaction"). */
  rows: Record<string, number>;
}

type Part = (scope: ExportScope) => AsyncGenerator<string | Buffer>;

const fixed = (text: string): Part =>
  async function* () {
    yield text;
  };

/** Sure's export version 2, file by file, in Sure's order. */
export const EXPORT_FILES: readonly (readonly [string, Part])[] = [
  ["version.txt", fixed(VERSION_TXT)],
  ["accounts.csv", accountsCsv],
  ["transactions.csv", transactionsCsv],
  ["trades.csv", tradesCsv],
  ["categories.csv", categoriesCsv],
  ["merchants.csv", merchantsCsv],
  ["rules.csv", rulesCsv],
  ["attachments.json", fixed(ATTACHMENTS_JSON)],
  ["all.ndjson", sureNdjson],
];

/**
 * Writes a family's data as Sure's export ZIP to `out`, streaming: each file's rows come out of
 * one COPY, written as Sure's text by PostgreSQL (see export-format-sql.ts), that archiver pulls
 * only as fast as `out` takes the bytes, one file after the other, so memory stays at a few chunks
 * however large the family. Every read runs in one read-only, repeatable-read snapshot (a Prisma
 * transaction for the rules, a connection of the same pool importing its snapshot for the COPYs):
 * the files agree with each other (a transfer's two transactions are in the file) even while the
 * family keeps writing.
 *
 * `familyId` must be the verified caller's family; every query filters by it. Resolves once the
 * archive is finished and `out` has taken every byte; on any error (a query, `out`) the reading
 * stops, the archive and `out` are destroyed and the promise rejects with that error.
 */
export async function writeFamilyExport(
  db: FinanceDb,
  familyId: string,
  out: NodeJS.WritableStream,
  opts: FamilyExportOptions = {},
): Promise<FamilyExportResult> {
  const batchSize = opts.batchSize ?? 5_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("batchSize must be a positive integer");
  const timeoutMs = opts.timeoutMs ?? 3_600_000;
  return db.$transaction(
    async (tx) => {
      await setReadOnly(tx);
      await opts.beforeReading?.(tx);
      const copy = await openCopySource(pgPoolOf(db), await exportSnapshot(tx), { timeoutMs, onRead: opts.onRead });
      let failed = true;
      try {
        const result = await writeArchive(out, (signal) => ({ db: tx, copy, familyId, batchSize, tally: {}, signal, reading: null, onRead: opts.onRead }));
        failed = false;
        return result;
      } finally {
        await copy.close(failed);
      }
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 10_000, timeout: timeoutMs },
  );
}

/** The archive of EXPORT_FILES read with `scopeOf(signal)` (the signal aborted when the archive fails), written to `out`. */
async function writeArchive(out: NodeJS.WritableStream, scopeOf: (signal: AbortSignal) => ExportScope): Promise<FamilyExportResult> {
  const stopped = new AbortController();
  const scope = scopeOf(stopped.signal);
  const archive = zipArchive();
  let current: Readable | null = null;
  const fail = (error: unknown) => {
    if (stopped.signal.aborted) return;
    stopped.abort(error);
    current?.destroy();
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  // Also keeps any later error of the archive handled once it has failed.
  archive.on("error", fail);
  archive.on("warning", fail);
  const written = pipeline(archive, out);

  // One file at a time, the next appended once the archive has taken the last: archiver starts
  // reading every stream appended (it copies each into a buffer of its own), and each connection
  // runs one query at a time.
  const startedAt = new Date();
  let next = 0;
  const appendNext = () => {
    if (stopped.signal.aborted) return;
    const file = EXPORT_FILES[next++];
    if (!file) {
      archive.finalize().catch(() => undefined); // its failure is the pipeline's
      return;
    }
    const [name, part] = file;
    current = Readable.from(part(scope), { objectMode: false });
    // Archiver's copy of the stream does not carry its errors: a failed read fails the archive here.
    current.on("error", fail);
    archive.append(current, { name, date: startedAt });
  };
  archive.on("entry", appendNext);
  appendNext();

  try {
    await written;
  } catch (error) {
    fail(error);
    await scope.reading; // the transaction ends only once no query of it is running
    throw error;
  }
  for (const [name] of EXPORT_FILES) if (name.endsWith(".csv")) scope.tally[name] ??= 0;
  return { bytes: archive.pointer(), rows: scope.tally };
}
