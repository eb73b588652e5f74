import {
  HoldingCollectionSchema,
  ImportConfigParamsSchema,
  ImportResponseSchema,
  routes,
  type Actor,
  type Holding as HoldingRow,
  type ImportDetail,
  type RouteDef,
} from "@hearth/contracts";
import { Writable } from "node:stream";
import pino from "pino";
import yauzl from "yauzl";
import { databaseUrlOf, type Logger } from "@hearth/service-kit";
import { createJobRunner, type JobDefinition, type JobRunner } from "@hearth/service-kit/jobs";
import { contextOf, endJobConnection as endJobConnectionOf, startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { ACCOUNT_REMOVAL_QUEUE } from "../src/accounts/account-removal-queries";
import { createFinanceService, type FinanceDeps } from "../src/app";
import { MIGRATIONS_DIR, createFinanceDb, type FinanceDb, type FinanceTx } from "../src/db";
import { writeFamilyExport } from "../src/family-exports/export-archive";
import { importPublishJob } from "../src/imports/import-publish-job";
import { createImportRepository } from "../src/imports/import-repository";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningFinance = ServiceUnderTest<FinanceDb, ReturnType<typeof createFinanceService>>;

/** How the kit builds finance. */
export const financeUnderTest = { service: "finance", migrationsDir: MIGRATIONS_DIR, createDb: createFinanceDb, create: createFinanceService } as const;

/** What the kit's shared health and internal-auth suites call on finance. */
export const financeBasics: ServiceBasics<FinanceDb, RunningFinance["parts"]> = {
  ...financeUnderTest,
  procedures: [
    { procedure: "tags.list", input: () => ({}), answer: { toEqual: [] } },
    {
      procedure: "tags.create",
      input: () => ({ tag: { name: "Nope" } }),
      answer: { toMatchObject: { name: "Nope" } },
      refusesReadOnlyKey: "insufficient_scope",
    },
  ],
  countRows: (db) => db.tag.count(),
};

/** The finance service on a fresh, migrated database, listening on a free port. */
export function startFinance(
  options: Pick<FinanceDeps, "ledgerImport" | "importPublish" | "importFamilyBytes" | "jobs" | "familyExport" | "ruleRunChunking" | "familyPurge"> = {},
): Promise<RunningFinance> {
  return startServiceUnderTest({ ...financeUnderTest, create: (deps) => createFinanceService({ ...deps, ...options }) });
}

/** Calls any finance procedure as `actor`, as the gateway would (GET routes are queries). */
export function financeAs(finance: RunningFinance, actor: Actor) {
  return <K extends keyof typeof routes>(procedure: K, input: unknown = {}): Promise<any> => {
    const route = routes[procedure] as RouteDef;
    return finance.call(procedure, route.method === "GET" ? "query" : "mutation", input, contextOf(actor));
  };
}

/**
 * Waits until every queued sync has run (balances are then current) and every account removal
 * queued has been done. An account a test marked pending_deletion by hand has no removal queued.
 */
export async function settled(finance: RunningFinance, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await finance.db.sync.count({ where: { status: { in: ["pending", "syncing"] } } });
    const removing = await finance.db.job.count({ where: { queue: ACCOUNT_REMOVAL_QUEUE, status: { in: ["queued", "running"] } } });
    if (open === 0 && removing === 0) return;
    if (Date.now() > deadline) throw new Error(`syncs still open after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls `check` until it stops throwing, or fails with its last error. */
export async function eventually<T>(check: () => Promise<T>, { timeoutMs = 20_000, intervalMs = 25 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Every holding `holdings.list` answers for `query`, page after page of `perPage`, and the total it reported. */
export async function allHoldings(
  call: ReturnType<typeof financeAs>,
  query: Record<string, unknown>,
  perPage = 100,
): Promise<{ rows: HoldingRow[]; total: number }> {
  const rows: HoldingRow[] = [];
  for (let page = 1; ; page++) {
    const listed = HoldingCollectionSchema.parse(await call("holdings.list", { ...query, page, per_page: perPage }));
    rows.push(...listed.holdings);
    if (listed.holdings.length < perPage) return { rows, total: listed.pagination.total_count };
  }
}

/** The account's stored balance rows without their ids and timestamps (what a recompute must reproduce). */
export async function storedBalances(finance: RunningFinance, accountId: string) {
  const rows = await finance.db.balance.findMany({ where: { accountId }, orderBy: [{ date: "asc" }, { currency: "asc" }] });
  return rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...row }) => row);
}

/** Creates an import with its publish asked for (`body`: imports.create's), and waits until the worker has finished it, complete or failed. */
export async function publishedImport(call: ReturnType<typeof financeAs>, body: Record<string, unknown>): Promise<ImportDetail> {
  const created = ImportResponseSchema.parse(await call("imports.create", { ...body, publish: true })).data;
  return eventually(async () => {
    const found = ImportResponseSchema.parse(await call("imports.get", { id: created.id })).data;
    if (found.status !== "complete" && found.status !== "failed") throw new Error(`import ${created.id} is still ${found.status}`);
    return found;
  });
}

/** An empty TransactionImport of `familyId`, pending. */
export function emptyImport(finance: RunningFinance, familyId: string) {
  return createImportRepository(finance.db).create(familyId, {
    type: "TransactionImport",
    accountId: null,
    configuration: ImportConfigParamsSchema.parse({}),
    content: "",
    rows: [],
    counts: { rows: 0, valid: 0 },
  });
}

/** An empty TransactionImport of `familyId` queued for publishing (for tests that run the queue by hand); answers its id. */
export async function queuedEmptyImport(finance: RunningFinance, familyId: string): Promise<string> {
  const created = await emptyImport(finance, familyId);
  if (!(await createImportRepository(finance.db).requestPublish(familyId, created.id))) throw new Error(`import ${created.id} could not be queued`);
  return created.id;
}

/** The family's all.ndjson: its export written into memory, the file taken out of the ZIP. */
export async function exportedNdjson(finance: RunningFinance, familyId: string): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeFamilyExport(finance.db, familyId, sink);
  const ndjson = (await readZip(Buffer.concat(chunks))).files["all.ndjson"];
  if (ndjson === undefined) throw new Error("no all.ndjson in the export");
  return ndjson;
}

/** Every file of a ZIP (a path or the bytes), in archive order: names, and texts by name. */
export function readZip(zip: string | Buffer): Promise<{ names: string[]; files: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const opened = (error: Error | null, archive: yauzl.ZipFile) => {
      if (error) return reject(error);
      const names: string[] = [];
      const files: Record<string, string> = {};
      archive.on("error", reject);
      archive.on("end", () => resolve({ names, files }));
      archive.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const parts: Buffer[] = [];
          stream.on("data", (part: Buffer) => parts.push(part));
          stream.on("error", reject);
          stream.on("end", () => {
            files[entry.fileName] = Buffer.concat(parts).toString("utf8");
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    };
    if (typeof zip === "string") yauzl.open(zip, { lazyEntries: true }, opened);
    else yauzl.fromBuffer(zip, { lazyEntries: true }, opened);
  });
}

/** Runs `work` in a transaction of its own and keeps that transaction (and the locks it took) open until `release`. */
export async function holdingTransaction<T>(db: FinanceDb, work: (tx: FinanceTx) => Promise<T>): Promise<{ value: T; release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let ready!: (value: T) => void;
  const answered = new Promise<T>((resolve) => (ready = resolve));
  const holder = db.$transaction(
    async (tx) => {
      ready(await work(tx));
      await released;
    },
    { timeout: 60_000 },
  );
  const ended = holder.then(() => Promise.reject(new Error("the transaction ended before its work answered")));
  const value = await Promise.race([answered, ended]);
  ended.catch(() => undefined);
  return {
    value,
    release: async () => {
      release();
      await holder;
    },
  };
}

/** Ends the connection that holds a running job's lock, as its worker's death would (test-kit's endJobConnection). */
export const endJobConnection = (finance: RunningFinance, jobId: string): Promise<Date> => endJobConnectionOf(finance.db, jobId);

/** Another instance's job runner on the test's database (another "process" beside the service's own), running these queues. */
export function sideRunner(
  finance: RunningFinance,
  definitions: (log: Logger) => JobDefinition<object, FinanceTx>[],
  options: { pollMs?: number; heartbeatMs?: number } = {},
): JobRunner {
  const silent = pino({ level: "silent" });
  return createJobRunner({ databaseUrl: databaseUrlOf(finance.db), db: finance.db, log: silent, definitions: definitions(silent), ...options });
}

/** An instance's job runner of import publishes. */
export const importPublishRunner = (finance: RunningFinance, options: { pollMs?: number; heartbeatMs?: number } = {}): JobRunner =>
  sideRunner(finance, (log) => [importPublishJob(finance.db, createImportRepository(finance.db), log)], options);
