import type { ProviderConnection as ProviderConnectionResource } from "@hearth/contracts";
import type { ProviderSync } from "../generated/prisma/client";
import type { ConnectionSummary } from "./provider-connection-repository";
import { providerSyncErrorMessage } from "./provider-sync-failure";

/** Sure's provider keys and item types of the providers Hearth connects. */
const PROVIDER_TYPES: Record<string, string> = { simplefin: "SimplefinItem" };

/** Sure's item type of a provider (its provider_type, and its syncs' syncable type). */
export const providerTypeOf = (provider: string): string => PROVIDER_TYPES[provider] ?? "SimplefinItem";

/** What a completed sync recorded (see provider-ledger-queries.ts). */
interface SyncStats {
  total_accounts?: number;
  linked_accounts?: number;
  unlinked_accounts?: number;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

function statsOf(sync: ProviderSync | null): SyncStats {
  const stats = sync?.stats;
  return stats && typeof stats === "object" && !Array.isArray(stats) ? (stats as SyncStats) : {};
}

/** Sure's ProviderConnectionStatus#sync_status_summary: the latest completed sync's counts, else the connection's. */
function statusSummary(summary: ConnectionSummary): string {
  const stats = statsOf(summary.latestCompleted);
  const total = stats.total_accounts ?? summary.totalAccounts;
  const linked = stats.linked_accounts ?? summary.linkedAccounts;
  const unlinked = stats.unlinked_accounts ?? Math.max(total - linked, 0);
  if (total === 0) return "No accounts found";
  if (unlinked === 0) return `${plural(linked, "account")} synced`;
  return `${linked} synced, ${unlinked} need setup`;
}

/** The spec's sanitized error: only for a failed or stale run, its message a stable category. */
function errorOf(sync: ProviderSync): { present: true; message: string | null } | null {
  const message = providerSyncErrorMessage(sync);
  return message === null ? null : { present: true, message };
}

function latestOf(sync: ProviderSync | null) {
  if (!sync) return null;
  return {
    id: sync.id,
    status: sync.status,
    created_at: sync.createdAt.toISOString(),
    syncing_at: iso(sync.syncingAt),
    completed_at: iso(sync.completedAt),
    failed_at: iso(sync.failedAt),
    error: errorOf(sync),
  };
}

/** A connection's status summary (Sure's ProviderConnectionStatus#to_h). Credentials are never part of it. */
export function toProviderConnectionResource(summary: ConnectionSummary): ProviderConnectionResource {
  const { connection } = summary;
  const unlinked = Math.max(summary.totalAccounts - summary.linkedAccounts, 0);
  const status = connection.status === "requires_update" ? "requires_update" : "good";
  return {
    id: connection.id,
    provider: "simplefin",
    provider_type: providerTypeOf(connection.provider),
    name: connection.name,
    status,
    requires_update: status === "requires_update",
    credentials_configured: connection.credentialsKind === "access_url",
    // Deleting a connection removes it at once: none waits for deletion.
    scheduled_for_deletion: false,
    pending_account_setup: unlinked > 0,
    institution: {
      name: connection.institutionName ?? connection.institutionDomain ?? connection.name,
      domain: connection.institutionDomain,
      url: connection.institutionUrl,
    },
    accounts: { total_count: summary.totalAccounts, linked_count: summary.linkedAccounts, unlinked_count: unlinked },
    sync: {
      syncing: summary.syncing,
      status_summary: statusSummary(summary),
      last_synced_at: iso(summary.latestCompleted?.completedAt ?? null),
      latest: latestOf(summary.latest),
    },
    created_at: connection.createdAt.toISOString(),
    updated_at: connection.updatedAt.toISOString(),
  };
}
