import { AppError, pageWindow, paginationOf, type PageQuery, type Sync } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Sync as SyncRow } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import type { SyncSignal } from "./sync-queue";

type SyncWithCount = SyncRow & { _count: { children: number } };
const WITH_CHILDREN = { _count: { select: { children: true } } } as const;

export function createSyncRepository(db: FinanceDb, signal: SyncSignal) {
  /** Names of the synced things (accounts; the family has none here). */
  async function namesOf(rows: SyncRow[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.filter((row) => row.syncableType === "Account").map((row) => row.syncableId))];
    if (ids.length === 0) return new Map();
    const accounts = await db.account.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
    return new Map(accounts.map((account) => [account.id, account.name]));
  }

  function toSyncResource(row: SyncWithCount, names: Map<string, string>): Sync {
    const iso = (date: Date | null) => (date ? date.toISOString() : null);
    return {
      id: row.id,
      status: row.status,
      in_progress: row.status === "pending" || row.status === "syncing",
      terminal: row.status === "completed" || row.status === "failed" || row.status === "stale",
      syncable: { type: row.syncableType, id: row.syncableId, name: names.get(row.syncableId) ?? null },
      parent_id: row.parentId,
      children_count: row._count.children,
      window_start_date: row.windowStartDate ? isoDateOf(row.windowStartDate) : null,
      window_end_date: row.windowEndDate ? isoDateOf(row.windowEndDate) : null,
      pending_at: iso(row.pendingAt),
      syncing_at: iso(row.syncingAt),
      completed_at: iso(row.completedAt),
      failed_at: iso(row.failedAt),
      error: row.error ? { message: row.error } : null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function present(rows: SyncWithCount[]) {
    const names = await namesOf(rows);
    return rows.map((row) => toSyncResource(row, names));
  }

  return {
    async list(familyId: string, query: PageQuery) {
      const [rows, total] = await db.$transaction([
        db.sync.findMany({
          where: { familyId },
          include: WITH_CHILDREN,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.sync.count({ where: { familyId } }),
      ]);
      return { data: await present(rows), meta: paginationOf(query, total) };
    },

    /** The latest run the family (or a change) started; a family sync's per-account children are not runs of their own. */
    async latest(familyId: string) {
      const row = await db.sync.findFirst({ where: { familyId, parentId: null }, include: WITH_CHILDREN, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
      return { data: row ? (await present([row]))[0]! : null };
    },

    async get(familyId: string, id: string) {
      const row = await db.sync.findFirst({ where: { id, familyId }, include: WITH_CHILDREN });
      if (!row) throw AppError.notFound("Sync");
      return { data: (await present([row]))[0]! };
    },

    /** Queues a sync of the whole family: every account in full, then transfer matching. */
    async queueFamilySync(familyId: string) {
      const sync = await db.sync.create({ data: { familyId, syncableType: "Family", syncableId: familyId } });
      signal.poke();
      return {
        id: sync.id,
        status: sync.status,
        syncable_type: sync.syncableType,
        syncable_id: sync.syncableId,
        started_at: null,
        completed_at: null,
        window_start_date: null,
        window_end_date: null,
        message: "Sync has been queued and will recompute every account's balances and match transfers",
      };
    },
  };
}
export type SyncRepository = ReturnType<typeof createSyncRepository>;
