import type { OutputOf, Sync } from "@hearth/contracts";
import type { Sync as SyncBase } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import type { SyncRow } from "./sync-repository";

/** `names`: the synced things' names by id (a name gone with its account is null). */
export function toSyncResource(row: SyncRow, names: Map<string, string>): Sync {
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
