import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { accountsCsv } from "./accounts-csv";
import { categoriesCsv } from "./categories-csv";
import type { ExportScope } from "./export-scope";
import { ATTACHMENTS_JSON, VERSION_TXT } from "./fixed-files";
import { merchantsCsv } from "./merchants-csv";
import { rulesCsv } from "./rules-csv";
import { sureNdjson } from "./sure-ndjson";
import { tradesCsv } from "./trades-csv";
import { transactionsCsv } from "./transactions-csv";
import { zipArchive } from "./zip-archive";

export interface FamilyExportOptions {
  /** Rows per query (default 5,000): the most any part holds in memory at once. */
  batchSize?: number;
  /** Told of every batch read, which part and how many rows (instrumentation; tests). */
  onBatch?: (part: string, rows: number) => void;
  /** Longest the export's snapshot may stay open (default one hour); past it the export fails. */
  timeoutMs?: number;
}

export interface FamilyExportResult {
  /** Bytes of the ZIP written to `out`. */
  bytes: number;
  /** Data rows per CSV file ("accounts.csv") and records per NDJSON type ("all.ndjson:Transaction"). */
  rows: Record<string, number>;
}

type Part = (scope: ExportScope) => AsyncGenerator<string>;

// eslint-disable-next-line @typescript-eslint/require-await -- a fixed file is a one-chunk part
const fixed = (text: string): Part => async function* () {
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
 * Writes a family's data as Sure's export ZIP to `out`, streaming: each file is a generator of
 * keyset batches that archiver pulls only as fast as `out` takes the bytes, one file after the
 * other, so memory stays at about a batch per file however large the family. Every read runs in
 * one read-only, repeatable-read transaction: the files agree with each other (a transfer's two
 * transactions are in the file) even while the family keeps writing.
 *
 * `familyId` must be the verified caller's family; every query filters by it. Resolves once the
 * archive is finished and `out` has taken every byte; on any error (a query, `out`) the archive
 * is aborted, the parts stop reading, and the promise rejects (`out` is destroyed).
 */
export async function writeFamilyExport(db: FinanceDb, familyId: string, out: NodeJS.WritableStream, opts: FamilyExportOptions = {}): Promise<FamilyExportResult> {
  const batchSize = opts.batchSize ?? 5_000;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError("batchSize must be a positive integer");
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET TRANSACTION READ ONLY`;
      const failed = new AbortController();
      const scope: ExportScope = { db: tx, familyId, batchSize, tally: {}, signal: failed.signal, onBatch: opts.onBatch };
      const archive = zipArchive();
      const sources: Readable[] = [];
      const stop = () => {
        failed.abort();
        archive.abort();
        for (const source of sources) source.destroy();
      };
      // Errors after the first (a part reading on while it stops) have nowhere else to go.
      archive.on("error", stop);
      archive.on("warning", (warning: Error) => archive.emit("error", warning));
      const written = pipeline(archive, out);
      const startedAt = new Date();
      for (const [name, part] of EXPORT_FILES) {
        const source = Readable.from(part(scope), { objectMode: false });
        source.on("error", () => undefined); // reported through the archive, which fails with it
        sources.push(source);
        archive.append(source, { name, date: startedAt });
      }
      archive.finalize().catch(() => undefined); // its failure is the pipeline's
      try {
        await written;
      } catch (error) {
        stop();
        throw error;
      }
      for (const name of ["accounts.csv", "transactions.csv", "trades.csv", "categories.csv", "merchants.csv", "rules.csv"]) scope.tally[name] ??= 0;
      return { bytes: archive.pointer(), rows: scope.tally };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, maxWait: 10_000, timeout: opts.timeoutMs ?? 3_600_000 },
  );
}
