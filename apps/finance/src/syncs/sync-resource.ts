import type { OutputOf, Sync } from "@hearth/contracts";
import type { Sync as SyncBase } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import { providerTypeOf } from "../provider-connections/provider-connection-resource";
import { providerSyncErrorMessage } from "../provider-connections/provider-sync-failure";
import type { ProviderSyncRow, SyncRow, SyncRun } from "./sync-repository";

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Sure's Sync#in_progress? and #terminal?. */
function stateOf(status: Sync["status"]) {
  return {
    status,
    in_progress: status === "pending" || status === "syncing",
    terminal: status === "completed" || status === "failed" || status === "stale",
  };
}

/** `names`: the synced accounts' names by id (a name gone with its account is null). */
export function toSyncRunResource(run: SyncRun, names: Map<string, string>): Sync {
  return run.kind === "sync" ? toSyncResource(run.row, names) : toProviderSyncResource(run.row);
}

function toSyncResource(row: SyncRow, names: Map<string, string>): Sync {
  return {
    id: row.id,
    ...stateOf(row.status),
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

/** A provider connection's run as Sure shows its item's Sync: no window or children; pending since queued; the connection's sanitized error. */
function toProviderSyncResource(row: ProviderSyncRow): Sync {
  const message = providerSyncErrorMessage(row);
  return {
    id: row.id,
    ...stateOf(row.status),
    syncable: { type: providerTypeOf(row.connection.provider), id: row.connectionId, name: row.connection.name },
    parent_id: null,
    children_count: 0,
    window_start_date: null,
    window_end_date: null,
    pending_at: row.createdAt.toISOString(),
    syncing_at: iso(row.syncingAt),
    completed_at: iso(row.completedAt),
    failed_at: iso(row.failedAt),
    error: message === null ? null : { message },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Sure's answer to POST /api/v1/sync: the family sync just queued. */
export function toQueuedSyncResource(row: SyncBase): OutputOf<"syncs.create"> {
  return {
    id: row.id,
    status: row.status,
    syncable_type: row.syncableType,
    syncable_id: row.syncableId,
    syncing_at: null,
    completed_at: null,
    window_start_date: null,
    window_end_date: null,
    // Sure's words (Sure's family sync applies the active rules); Hearth's recomputes every account and matches transfers; rules apply when transactions are created or imported, and on a rule run.
    message: "Sync has been queued and will apply all active rules",
  };
}
