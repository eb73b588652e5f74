import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import { Prisma, type ProviderSync, type Sync } from "../generated/prisma/client";
import { queueFamilySync } from "./sync-queue-queries";

const WITH_CHILDREN = { _count: { select: { children: true } } } as const;
const WITH_CONNECTION = { connection: { select: { name: true, provider: true } } } as const;
export type SyncRow = Sync & { _count: { children: number } };
/** A provider connection's run (provider_syncs), with what its syncable shows. */
export type ProviderSyncRow = ProviderSync & { connection: { name: string; provider: string } };
/** A run as /syncs shows it: Sure keeps the family's, its accounts' and its provider items' runs in one syncs table; Hearth in two. */
export type SyncRun = { kind: "sync"; row: SyncRow } | { kind: "provider"; row: ProviderSyncRow };

interface RunRef {
  id: string;
  provider: boolean;
}

/**
 * Ids of the family's runs in both tables, newest first, `skip` then `take` of them. Each side is
 * cut to the window's end before they are merged, so each is read by its family index.
 */
function runRefs(tx: FinanceTx, familyId: string, { skip, take, rootsOnly = false }: { skip: number; take: number; rootsOnly?: boolean }) {
  const roots = rootsOnly ? Prisma.sql`AND parent_id IS NULL` : Prisma.empty;
  return tx.$queryRaw<RunRef[]>`
    SELECT id, provider FROM (
      (SELECT id, created_at, false AS provider FROM syncs WHERE family_id = ${familyId}::uuid ${roots}
        ORDER BY created_at DESC, id DESC LIMIT ${skip + take})
      UNION ALL
      (SELECT id, created_at, true AS provider FROM provider_syncs WHERE family_id = ${familyId}::uuid
        ORDER BY created_at DESC, id DESC LIMIT ${skip + take})
    ) AS runs
    ORDER BY created_at DESC, id DESC OFFSET ${skip} LIMIT ${take}`;
}

/** The runs `refs` names, in their order (one gone meanwhile is left out). */
async function runsOf(tx: FinanceTx, refs: RunRef[]): Promise<SyncRun[]> {
  const idsOf = (provider: boolean) => refs.filter((ref) => ref.provider === provider).map((ref) => ref.id);
  const syncs = await tx.sync.findMany({ where: { id: { in: idsOf(false) } }, include: WITH_CHILDREN });
  const providerSyncs = await tx.providerSync.findMany({ where: { id: { in: idsOf(true) } }, include: WITH_CONNECTION });
  const byId = new Map<string, SyncRun>([
    ...syncs.map((row) => [row.id, { kind: "sync", row }] as const),
    ...providerSyncs.map((row) => [row.id, { kind: "provider", row }] as const),
  ]);
  return refs.flatMap((ref) => byId.get(ref.id) ?? []);
}

/** One snapshot (repeatable read): a page and its count agree though runs are queued meanwhile. */
const SNAPSHOT = { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead };

/** A family's syncs as the API shows them, its provider connections' among them; the worker's side of the table is in sync-queue-queries. */
export function createSyncRepository(db: FinanceDb) {
  return {
    list(familyId: string, query: QueryOf<"syncs.list">): Promise<{ runs: SyncRun[]; total: number }> {
      return db.$transaction(async (tx) => {
        const runs = await runsOf(tx, await runRefs(tx, familyId, pageWindow(query)));
        const total = (await tx.sync.count({ where: { familyId } })) + (await tx.providerSync.count({ where: { familyId } }));
        return { runs, total };
      }, SNAPSHOT);
    },

    /** The latest run the family (or a change, or a provider connection) started; a family sync's per-account children are not runs of their own. */
    latest(familyId: string): Promise<SyncRun | null> {
      return db.$transaction(async (tx) => (await runsOf(tx, await runRefs(tx, familyId, { skip: 0, take: 1, rootsOnly: true })))[0] ?? null, SNAPSHOT);
    },

    async get(familyId: string, id: string): Promise<SyncRun> {
      const row = await db.sync.findFirst({ where: { id, familyId }, include: WITH_CHILDREN });
      if (row) return { kind: "sync", row };
      const provider = await db.providerSync.findFirst({ where: { id, familyId }, include: WITH_CONNECTION });
      if (provider) return { kind: "provider", row: provider };
      throw AppError.notFound("Sync");
    },

    /** Names of the synced accounts (the family has none here; a provider run carries its connection's). */
    async namesOf(runs: SyncRun[]): Promise<Map<string, string>> {
      const ids = [...new Set(runs.flatMap((run) => (run.kind === "sync" && run.row.syncableType === "Account" ? [run.row.syncableId] : [])))];
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
