import type { FinanceDb } from "../db";
import { Prisma, type ProviderConnection, type ProviderSync } from "../generated/prisma/client";
import { queueProviderSync } from "./provider-sync-queries";

/** A connection as its status summary needs it: never its sealed credentials. */
export type ConnectionRow = Omit<ProviderConnection, "sealedCredentials">;

export interface ConnectionSummary {
  connection: ConnectionRow;
  /** Accounts the provider reported, and those linked to a live account of the family. */
  totalAccounts: number;
  linkedAccounts: number;
  /** A sync is queued or running. */
  syncing: boolean;
  latest: ProviderSync | null;
  latestCompleted: ProviderSync | null;
}

export interface NewConnection {
  provider: string;
  name: string;
  sealedCredentials: string;
  credentialsKind: "setup_token" | "access_url";
}

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The family's provider connections (provider_connections, their accounts and syncs) as requests see them. */
export function createProviderConnectionRepository(db: FinanceDb) {
  /** One snapshot (repeatable read): a sync that completes meanwhile is seen whole or not at all. */
  function summaries(familyId: string, id?: string): Promise<ConnectionSummary[]> {
    return db.$transaction(
      async (tx) => {
        const connections = await tx.providerConnection.findMany({
          where: { familyId, ...(id ? { id } : {}) },
          omit: { sealedCredentials: true },
          orderBy: NEWEST_FIRST,
        });
        if (connections.length === 0) return [];
        const ids = connections.map((connection) => connection.id);
        const counts = await tx.$queryRaw<{ connection_id: string; total: number; linked: number; syncing: boolean }[]>`
          SELECT c.id AS connection_id,
                 (SELECT count(*)::int FROM provider_accounts pa WHERE pa.connection_id = c.id) AS total,
                 (SELECT count(*)::int FROM provider_accounts pa JOIN accounts a ON a.id = pa.account_id
                   WHERE pa.connection_id = c.id AND a.status <> 'pending_deletion') AS linked,
                 EXISTS (SELECT 1 FROM provider_syncs s WHERE s.connection_id = c.id AND s.status IN ('pending', 'syncing')) AS syncing
            FROM provider_connections c WHERE c.id = ANY(${ids}::uuid[])`;
        const latest = await tx.providerSync.findMany({ where: { connectionId: { in: ids } }, orderBy: NEWEST_FIRST, distinct: ["connectionId"] });
        const completed = await tx.providerSync.findMany({
          where: { connectionId: { in: ids }, status: "completed" },
          orderBy: NEWEST_FIRST,
          distinct: ["connectionId"],
        });
        const countOf = new Map(counts.map((row) => [row.connection_id, row]));
        const latestOf = new Map(latest.map((sync) => [sync.connectionId, sync]));
        const completedOf = new Map(completed.map((sync) => [sync.connectionId, sync]));
        return connections.map((connection) => {
          const count = countOf.get(connection.id);
          return {
            connection,
            totalAccounts: count?.total ?? 0,
            linkedAccounts: count?.linked ?? 0,
            syncing: count?.syncing ?? false,
            latest: latestOf.get(connection.id) ?? null,
            latestCompleted: completedOf.get(connection.id) ?? null,
          };
        });
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
    );
  }

  return {
    /** Every connection of the family, newest first. */
    list: (familyId: string) => summaries(familyId),

    async find(familyId: string, id: string): Promise<ConnectionSummary | null> {
      const [summary] = await summaries(familyId, id);
      return summary ?? null;
    },

    /**
     * The connection and its first sync, queued in the same transaction; null when the family has
     * `limit` already. Counted under the family's lock: parallel creates cannot all pass the count.
     */
    create(familyId: string, connection: NewConnection, limit: number): Promise<string | null> {
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.provider-connections:' || ${familyId}::text, 0))`;
        if ((await tx.providerConnection.count({ where: { familyId } })) >= limit) return null;
        const created = await tx.providerConnection.create({ data: { familyId, ...connection }, select: { id: true } });
        await queueProviderSync(tx, familyId, created.id);
        return created.id;
      });
    },

    /** Removes the connection, its credentials, accounts list and syncs (the family's accounts and entries stay); false when the family has none of that id. */
    async remove(familyId: string, id: string): Promise<boolean> {
      const { count } = await db.providerConnection.deleteMany({ where: { id, familyId } });
      return count === 1;
    },

    /**
     * Queues a sync unless one is queued or running already (the connection row is locked, so two
     * requests at once queue one); false when the family has no connection of that id.
     */
    requestSync(familyId: string, id: string): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const [connection] = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM provider_connections WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
        if (!connection) return false;
        const open = await tx.providerSync.count({ where: { connectionId: id, status: { in: ["pending", "syncing"] } } });
        if (open === 0) await queueProviderSync(tx, familyId, id);
        return true;
      });
    },
  };
}
export type ProviderConnectionRepository = ReturnType<typeof createProviderConnectionRepository>;
