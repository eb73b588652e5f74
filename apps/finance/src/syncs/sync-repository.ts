import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Sync } from "../generated/prisma/client";
import { queueFamilySync } from "./sync-queue-queries";

const WITH_CHILDREN = { _count: { select: { children: true } } } as const;
export type SyncRow = Sync & { _count: { children: number } };

/** A family's syncs as the API shows them; the worker's side of the table is in sync-queue-queries. */
export function createSyncRepository(db: FinanceDb) {
  return {
    async list(familyId: string, query: QueryOf<"syncs.list">) {
      const [rows, total] = await db.$transaction([
        db.sync.findMany({
          where: { familyId },
          include: WITH_CHILDREN,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          ...pageWindow(query),
        }),
        db.sync.count({ where: { familyId } }),
      ]);
      return { rows, total };
    },

    /** The latest run the family (or a change) started; a family sync's per-account children are not runs of their own. */
    latest(familyId: string): Promise<SyncRow | null> {
      return db.sync.findFirst({ where: { familyId, parentId: null }, include: WITH_CHILDREN, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    },

    async get(familyId: string, id: string): Promise<SyncRow> {
      const row = await db.sync.findFirst({ where: { id, familyId }, include: WITH_CHILDREN });
      if (!row) throw AppError.notFound("Sync");
      return row;
    },

    /** Names of the synced things (accounts; the family has none here). */
    async namesOf(rows: Sync[]): Promise<Map<string, string>> {
      const ids = [...new Set(rows.filter((row) => row.syncableType === "Account").map((row) => row.syncableId))];
      if (ids.length === 0) return new Map();
      const accounts = await db.account.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
      return new Map(accounts.map((account) => [account.id, account.name]));
    },

    /** A sync of the whole family: every account in full, then transfer matching. */
    queueFamilySync(familyId: string) {
      return db.$transaction((tx) => queueFamilySync(tx, familyId));
    },
  };
}
export type SyncRepository = ReturnType<typeof createSyncRepository>;
