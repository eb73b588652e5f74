import { IMPORT_ACCOUNT_NAMES_MAX, type ImportConfig, type ImportStatus, type ImportType, type TextEncoding } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import { risingIds } from "../rules/rising-id-sql";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import type { KnownNames } from "./import-resource";
import { coveredCurrencies, storedForeignCurrencies, type ForeignCurrency } from "./currencies/foreign-currency-queries";
import { importAccountNames, liveAccountIds, saveImportAccountMappings } from "./import-account-mapping-queries";
import { restoreClaimedDuplicates } from "./import-claim-queries";
import { queueImportPublish } from "./import-publish-queue-queries";
import { FAMILY_IMPORT_BYTES, reserveImportBytes } from "./import-storage-budget";
import { removeImportCatalog } from "./import-revert-catalog-queries";
import { Prisma, type Import, type ImportRow } from "../generated/prisma/client";

/** A row as stored: values' integers (amounts in minor units) as decimal strings, JSON having no bigint. */
export interface StoredRow {
  rowNumber: number;
  fields: Record<string, unknown>;
  errors: { field: string; message: string }[];
  values: Record<string, unknown> | null;
}

export interface NewImport {
  type: ImportType;
  accountId: string | null;
  configuration: ImportConfig;
  content: string;
  /** The encoding the file was read in; UTF-8 when left out (JSON text). */
  encoding?: TextEncoding;
  rows: StoredRow[];
  /** Counts of an import stored without rows (a SureImport's NDJSON lines); else its rows are counted. */
  counts?: { rows: number; valid: number };
}

/** JSON text of a value, bigints as decimal strings (JSON has none). */
const jsonText = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item));
const toJson = (value: unknown): Prisma.InputJsonValue => JSON.parse(jsonText(value)) as Prisma.InputJsonValue;

/** Rows per INSERT when an import's rows are stored. */
const ROW_BATCH = 5_000;

/** The import, locked for the transaction: a publish or revert of it waits, or is waited for. */
async function lockImport(tx: FinanceTx, familyId: string, id: string) {
  const [row] = await tx.$queryRaw<{ status: string; completed_at: Date | null }[]>`
    SELECT status::text AS status, completed_at FROM imports WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
  return row ?? null;
}

/**
 * Removes exactly what a complete import added (its entries, the accounts it made, then the
 * records it made that nothing outside it uses: removeImportCatalog), gives back what it changed
 * on the transactions it claimed, and queues the syncs they need.
 */
async function removeWhatItAdded(tx: FinanceTx, familyId: string, id: string, completedAt: Date | null): Promise<void> {
  // First, so a category the import made and a claimed transaction took goes back to being unused.
  await restoreClaimedDuplicates(tx, familyId, id);
  const windows = await tx.$queryRaw<{ account_id: string; first: Date }[]>`
    SELECT account_id, min(date) AS first FROM entries WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid GROUP BY account_id`;
  await tx.$executeRaw`DELETE FROM entries WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid`;
  // An account it made goes only when nothing else was put in it since: one that holds other
  // entries (a later import's, a person's) stays, the family's own from now on.
  const removedAccounts = await tx.$queryRaw<{ id: string }[]>`
    DELETE FROM accounts a WHERE a.import_id = ${id}::uuid AND a.family_id = ${familyId}::uuid
       AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.account_id = a.id)
    RETURNING a.id`;
  await tx.$executeRaw`UPDATE accounts SET import_id = NULL WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid`;
  const repriced = await removeImportCatalog(tx, familyId, id, completedAt ?? new Date());
  const gone = new Set(removedAccounts.map((a) => a.id));
  for (const window of [...windows, ...repriced]) {
    if (!gone.has(window.account_id)) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
  }
}

/** The family's imports and their rows (imports, import_rows). */
export function createImportRepository(db: FinanceDb, familyBytes = FAMILY_IMPORT_BYTES) {
  return {
    /**
     * The import and all its rows, in one transaction: an upload is kept whole or not at all; none
     * past the family's storage budget (reserveImportBytes).
     */
    async create(familyId: string, input: NewImport): Promise<Import> {
      return db.$transaction(
        async (tx) => {
          await reserveImportBytes(tx, familyId, Buffer.byteLength(input.content, "utf8"), familyBytes);
          const row = await tx.import.create({
            data: {
              familyId,
              type: input.type,
              accountId: input.accountId,
              configuration: toJson(input.configuration),
              content: input.content,
              encoding: input.encoding ?? "utf-8",
              rowsCount: input.counts?.rows ?? input.rows.length,
              validRowsCount: input.counts?.valid ?? input.rows.filter((r) => r.errors.length === 0).length,
            },
          });
          // One statement per batch from parallel arrays: Prisma's createMany of JSON columns is several times slower.
          const ids = risingIds();
          for (let start = 0; start < input.rows.length; start += ROW_BATCH) {
            const batch = input.rows.slice(start, start + ROW_BATCH);
            await tx.$executeRaw`
              INSERT INTO import_rows (id, import_id, row_number, fields, errors, values)
              SELECT ${ids(Prisma.sql`(${start} + t.ordinal)`)}, ${row.id}::uuid, t.row_number, t.fields::jsonb, t.errors::jsonb, t.values::jsonb
                FROM unnest(${batch.map((r) => r.rowNumber)}::int[], ${batch.map((r) => jsonText(r.fields))}::text[],
                            ${batch.map((r) => jsonText(r.errors))}::text[], ${batch.map((r) => (r.values === null ? null : jsonText(r.values)))}::text[])
                     WITH ORDINALITY AS t(row_number, fields, errors, values, ordinal)`;
          }
          return row;
        },
        { timeout: 60_000 },
      );
    },

    async list(familyId: string, filters: { status?: ImportStatus; type?: ImportType }, window: { skip: number; take: number }) {
      const where = { familyId, ...(filters.status ? { status: filters.status } : {}), ...(filters.type ? { type: filters.type } : {}) };
      const [rows, total] = await Promise.all([
        db.import.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...window, omit: { content: true } }),
        db.import.count({ where }),
      ]);
      return { rows, total };
    },

    find: (familyId: string, id: string) => db.import.findFirst({ where: { id, familyId }, omit: { content: true } }),

    async rows(importId: string, window: { skip: number; take: number }): Promise<{ rows: ImportRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.importRow.findMany({ where: { importId }, orderBy: { rowNumber: "asc" }, ...window }),
        db.importRow.count({ where: { importId } }),
      ]);
      return { rows, total };
    },

    /** What the family has under the names of a page of rows: accounts by lower-cased name, categories and tags by name. */
    async knownNames(familyId: string, names: { accounts: string[]; categories: string[]; tags: string[] }): Promise<KnownNames> {
      const [accounts, categories, tags] = await Promise.all([
        names.accounts.length === 0
          ? []
          : db.$queryRaw<{ id: string; name: string }[]>`
              SELECT DISTINCT ON (lower(name)) id, name FROM accounts
               WHERE family_id = ${familyId}::uuid AND status <> 'pending_deletion' AND lower(name) = ANY(${names.accounts.map((n) => n.toLowerCase())}::text[])
               ORDER BY lower(name), created_at, id`,
        names.categories.length === 0 ? [] : db.category.findMany({ where: { familyId, name: { in: names.categories } }, select: { id: true, name: true } }),
        names.tags.length === 0 ? [] : db.tag.findMany({ where: { familyId, name: { in: names.tags } }, select: { id: true, name: true } }),
      ]);
      return {
        accounts: new Map(accounts.map((a) => [a.name.toLowerCase(), a])),
        categories: new Map(categories.map((c) => [c.name, c])),
        tags: new Map(tags.map((t) => [t.name, t])),
      };
    },

    /** The currencies of the import's rows other than `accountCurrency` (see currencies/). */
    foreignCurrencies: (importId: string, accountCurrency: string) => storedForeignCurrencies(db, importId, accountCurrency),
    coveredCurrencies: (familyId: string, accountCurrency: string, foreign: ForeignCurrency[]) => coveredCurrencies(db, familyId, accountCurrency, foreign),

    /** The names its rows give their accounts, with where each goes (at most IMPORT_ACCOUNT_NAMES_MAX + 1: one more says there are too many). */
    accountNames: (familyId: string, importId: string) => importAccountNames(db, familyId, importId, IMPORT_ACCOUNT_NAMES_MAX + 1),
    liveAccountIds: (familyId: string, ids: string[]) => liveAccountIds(db, familyId, ids),
    saveAccountMappings: (familyId: string, importId: string, mappings: { name: string; accountId: string | null; create: boolean }[]) =>
      saveImportAccountMappings(db, familyId, importId, mappings),

    /** The family's category, tag and merchant names (Sure's preflight validate_taxonomy_collisions). */
    async taxonomyNames(familyId: string): Promise<{ Category: string[]; Tag: string[]; Merchant: string[] }> {
      const named = { where: { familyId }, select: { name: true } } as const;
      const [categories, tags, merchants] = await Promise.all([
        db.category.findMany(named),
        db.tag.findMany(named),
        db.merchant.findMany({ where: { familyId, kind: "FamilyMerchant" }, select: { name: true } }),
      ]);
      return { Category: categories.map((c) => c.name), Tag: tags.map((t) => t.name), Merchant: merchants.map((m) => m.name) };
    },

    accountOf: (familyId: string, accountId: string) =>
      db.account.findFirst({ where: { id: accountId, familyId, status: { not: "pending_deletion" } }, select: { id: true, currency: true } }),

    /** Queues a pending (or failed) import for publishing, with its job; false when it is not (importing, complete...). */
    async requestPublish(familyId: string, id: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const queued = await tx.import.updateMany({
          where: { id, familyId, status: { in: ["pending", "failed"] } },
          data: { status: "importing", publishRequestedAt: new Date(), rowsDone: 0, error: null },
        });
        if (queued.count === 1) await queueImportPublish(tx, familyId, id);
        return queued.count === 1;
      });
    },

    /** Progress, written outside the publishing transaction so readers see it while the rows are not yet committed (in the job's transaction that checks it is still its worker's). */
    async progress(tx: FinanceTx, id: string, rowsDone: number): Promise<void> {
      await tx.import.updateMany({ where: { id, status: "importing" }, data: { rowsDone } });
    },

    /** Marks the import published, inside the publishing transaction. */
    async complete(tx: FinanceTx, id: string, result: Record<string, number>, rowsDone: number): Promise<boolean> {
      const done = await tx.import.updateMany({
        where: { id, status: "importing" },
        data: { status: "complete", result, rowsDone, completedAt: new Date(), error: null },
      });
      return done.count === 1;
    },

    /**
     * Removes exactly what a complete import added (its entries, the accounts it made, then the
     * records it made that nothing outside it uses: removeImportCatalog) and queues the syncs
     * they need; the import is pending again (Sure's Import#revert), and can be published anew.
     * Null: no such import; false: it is not complete.
     */
    async revert(familyId: string, id: string): Promise<boolean | null> {
      return db.$transaction(
        async (tx) => {
          const row = await lockImport(tx, familyId, id);
          if (!row) return null;
          if (row.status !== "complete") return false;
          await removeWhatItAdded(tx, familyId, id, row.completed_at);
          await tx.import.update({ where: { id }, data: { status: "pending", result: Prisma.DbNull, rowsDone: 0, completedAt: null, error: null } });
          return true;
        },
        { timeout: 120_000 },
      );
    },

    /**
     * Deletes the import with its rows, the import session that made it (if any) and, when it is
     * complete, what it added (as a revert removes it; Sure's Import destroys its accounts and
     * entries with it). Null: no such import; false: it is being published or reverted.
     */
    async remove(familyId: string, id: string): Promise<boolean | null> {
      return db.$transaction(
        async (tx) => {
          // The session that made it first, then the import: the order a session's publish locks
          // them in (the other order deadlocked a delete against a publish of the same session).
          await tx.$queryRaw`SELECT id FROM import_sessions WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
          const row = await lockImport(tx, familyId, id);
          if (!row) return null;
          if (row.status === "importing" || row.status === "reverting") return false;
          if (row.status === "complete") await removeWhatItAdded(tx, familyId, id, row.completed_at);
          // The session that made it is spent with it (its chunks were this import's file).
          await tx.importSession.deleteMany({ where: { importId: id, familyId } });
          await tx.import.delete({ where: { id } });
          return true;
        },
        { timeout: 120_000 },
      );
    },

    /** Marks the import failed with the reason people are shown (in the transaction that ends its job failed). */
    async fail(tx: FinanceTx, id: string, error: string): Promise<void> {
      await tx.import.updateMany({ where: { id, status: "importing" }, data: { status: "failed", error: error.slice(0, 2_000), rowsDone: 0 } });
    },
  };
}
export type ImportRepository = ReturnType<typeof createImportRepository>;
