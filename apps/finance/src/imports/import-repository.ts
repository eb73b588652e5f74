import type { ImportConfig, ImportStatus, ImportType } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { adjustTransactionCount, bumpLedgerVersion } from "../ledger/ledger-version";
import { risingIds } from "../rules/sql-ids";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import type { KnownNames } from "./import-resource";
import { removeImportCatalog } from "./import-revert-catalog";
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
  rows: StoredRow[];
  /** Counts of an import stored without rows (a SureImport's NDJSON lines); else its rows are counted. */
  counts?: { rows: number; valid: number };
}

/** How long after its claim an import whose publish lock nobody holds counts as a dead worker's (the worker takes the lock within a second). */
export const DEAD_WORKER_TAKEOVER_MS = 30_000;

/** The advisory lock a publish holds for its whole transaction: the sign its worker is alive. */
export const publishLockSql = (importId: Prisma.Sql): Prisma.Sql => Prisma.sql`hashtextextended('hearth.finance.import-publish:' || ${importId}::text, 0)`;

/** Takes the import's publish lock in the publishing transaction: false when another live worker holds it. */
export async function takePublishLock(tx: Prisma.TransactionClient, importId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${publishLockSql(Prisma.sql`${importId}::uuid`)}) AS taken`;
  return row?.taken === true;
}

export interface ClaimedImport {
  id: string;
  familyId: string;
  lease: Date;
}

/** JSON text of a value, bigints as decimal strings (JSON has none). */
const jsonText = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item));
const toJson = (value: unknown): Prisma.InputJsonValue => JSON.parse(jsonText(value)) as Prisma.InputJsonValue;

/** Rows per INSERT when an import's rows are stored. */
const ROW_BATCH = 5_000;

/** The family's imports and their rows (imports, import_rows). */
export function createImportRepository(db: FinanceDb) {
  return {
    /** The import and all its rows, in one transaction: an upload is kept whole or not at all. */
    async create(familyId: string, input: NewImport): Promise<Import> {
      return db.$transaction(
        async (tx) => {
          const row = await tx.import.create({
            data: {
              familyId,
              type: input.type,
              accountId: input.accountId,
              configuration: toJson(input.configuration),
              content: input.content,
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

    accountOf: (familyId: string, accountId: string) =>
      db.account.findFirst({ where: { id: accountId, familyId, status: { not: "pending_deletion" } }, select: { id: true, currency: true } }),

    /** Queues a pending (or failed) import for publishing; false when it is not (importing, complete...). */
    async requestPublish(familyId: string, id: string): Promise<boolean> {
      const queued = await db.import.updateMany({
        where: { id, familyId, status: { in: ["pending", "failed"] } },
        data: { status: "importing", publishRequestedAt: new Date(), rowsDone: 0, error: null },
      });
      return queued.count === 1;
    },

    /**
     * The next import waiting to be published (or whose worker's lease lapsed, or whose worker is
     * gone), held for `leaseMs`. Families take turns: the one whose import was taken up longest ago
     * (or never) first, then the oldest request, so a family that queues a hundred imports has them
     * run one between each other family's, never all before theirs.
     *
     * A publishing worker holds the import's advisory lock (publishLockSql) for as long as its
     * transaction lives; PostgreSQL drops it when the worker's connection dies. An import claimed
     * more than `takeoverAfterMs` ago (time enough for its worker to take the lock) whose lock
     * nobody holds is a dead worker's: taken over at once, not after the rest of its 15-minute lease.
     */
    async claim(leaseMs: number, takeoverAfterMs: number = DEAD_WORKER_TAKEOVER_MS): Promise<ClaimedImport | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; lease_expires_at: Date }[]>`
        UPDATE imports SET claimed_at = now(), lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
         WHERE id = (
           SELECT i.id FROM imports i
            WHERE i.status = 'importing'
              AND (i.lease_expires_at IS NULL OR i.lease_expires_at < now()
                   -- CASE: the lock is only ever tried on a publish that looks dead, never on one just claimed.
                   OR CASE WHEN i.claimed_at < now() - ${takeoverAfterMs} * interval '1 millisecond'
                           THEN pg_try_advisory_xact_lock(${publishLockSql(Prisma.sql`i.id`)}) ELSE false END)
            ORDER BY (SELECT max(o.claimed_at) FROM imports o WHERE o.family_id = i.family_id) ASC NULLS FIRST, i.publish_requested_at, i.id
            LIMIT 1 FOR UPDATE OF i SKIP LOCKED)
        RETURNING id, family_id, lease_expires_at`;
      return row ? { id: row.id, familyId: row.family_id, lease: row.lease_expires_at } : null;
    },

    /** Progress, written outside the publishing transaction so readers see it while the rows are not yet committed; only while the claim is this worker's. */
    async progress(claim: ClaimedImport, rowsDone: number): Promise<void> {
      await db.import.updateMany({ where: { id: claim.id, status: "importing", leaseExpiresAt: claim.lease }, data: { rowsDone } });
    },

    /** Whether the claim is still this worker's (read in its publishing transaction, once it holds the publish lock). */
    async stillClaimed(tx: Prisma.TransactionClient, claim: ClaimedImport): Promise<boolean> {
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM imports WHERE id = ${claim.id}::uuid AND status = 'importing' AND lease_expires_at = ${claim.lease}`;
      return row !== undefined;
    },

    /** Marks the import published, inside the publishing transaction. */
    async complete(tx: Prisma.TransactionClient, claim: ClaimedImport, result: Record<string, number>, rowsDone: number): Promise<boolean> {
      const done = await tx.import.updateMany({
        where: { id: claim.id, status: "importing", leaseExpiresAt: claim.lease },
        data: { status: "complete", result, rowsDone, completedAt: new Date(), leaseExpiresAt: null, error: null },
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
          const [row] = await tx.$queryRaw<{ status: string; completed_at: Date | null }[]>`
            SELECT status, completed_at FROM imports WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
          if (!row) return null;
          if (row.status !== "complete") return false;
          const windows = await tx.$queryRaw<{ account_id: string; first: Date }[]>`
            SELECT account_id, min(date) AS first FROM entries WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid GROUP BY account_id`;
          await tx.$executeRaw`DELETE FROM entries WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid`;
          const removedAccounts = await tx.$queryRaw<{ id: string }[]>`
            DELETE FROM accounts WHERE import_id = ${id}::uuid AND family_id = ${familyId}::uuid RETURNING id`;
          await removeImportCatalog(tx, familyId, id, row.completed_at ?? new Date());
          const gone = new Set(removedAccounts.map((a) => a.id));
          for (const window of windows) {
            if (!gone.has(window.account_id)) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
          }
          // Cached list totals and page positions are of the ledger with the import in it.
          await bumpLedgerVersion(tx, familyId);
          await adjustTransactionCount(tx, familyId, null);
          await tx.import.update({ where: { id }, data: { status: "pending", result: Prisma.DbNull, rowsDone: 0, completedAt: null, error: null } });
          return true;
        },
        { timeout: 120_000 },
      );
    },

    /** Marks the claim's import failed, unless another worker has taken it over since (its lease is then another). */
    async fail(claim: ClaimedImport, error: string): Promise<void> {
      await db.import.updateMany({
        where: { id: claim.id, status: "importing", leaseExpiresAt: claim.lease },
        data: { status: "failed", error: error.slice(0, 2_000), leaseExpiresAt: null, rowsDone: 0 },
      });
    },
  };
}
export type ImportRepository = ReturnType<typeof createImportRepository>;
