import type { ImportSession } from "@hearth/contracts";
import type { Import, ImportSession as SessionRow, ImportSessionChunk } from "../../generated/prisma/client";
import { completedSummary, failedSession } from "./session-summary";

type SessionStatus = ImportSession["status"];

/** A session's status is its import's: pending until published; a revert makes it pending again. */
function statusOf(publishing: Omit<Import, "content"> | null): SessionStatus {
  switch (publishing?.status) {
    case undefined:
    case "pending":
      return "pending";
    case "importing":
    case "reverting":
      return "importing";
    case "complete":
      return "complete";
    default:
      return "failed";
  }
}

/** The session's records by type, summed over its chunks (each chunk's counted at upload). */
function mergedRecords(chunks: Omit<ImportSessionChunk, "content">[]): Record<string, number> {
  const records: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const chunk of chunks) {
    for (const [type, count] of Object.entries((chunk.summary as { records?: Record<string, number> }).records ?? {}))
      records[type] = (records[type] ?? 0) + count;
  }
  return { ...records };
}

export function toImportSessionResource(
  session: SessionRow & { chunks: Omit<ImportSessionChunk, "content">[] },
  publishing: Omit<Import, "content"> | null,
): ImportSession {
  const status = statusOf(publishing);
  // Sure's summary is {} until published, then per entity (created/updated/skipped/failed); a failure names its code.
  const failed = status === "failed" && publishing?.error ? failedSession(publishing.error) : null;
  const error = failed?.error ?? null;
  const written = status === "complete" ? ((publishing?.result as Record<string, number> | null) ?? {}) : null;
  const summary = written ? completedSummary(written, mergedRecords(session.chunks)) : (failed?.summary ?? {});
  return {
    id: session.id,
    type: "SureImport",
    status,
    client_session_id: session.clientSessionId,
    expected_chunks: session.expectedChunks,
    chunks_count: session.chunks.length,
    summary,
    error,
    // One import publishes every chunk: the last chunk carries the counts, so chunks sum to the session as in Sure.
    chunks: session.chunks.map((chunk, index) => ({
      id: chunk.id,
      sequence: chunk.sequence,
      client_chunk_id: chunk.clientChunkId,
      status,
      rows_count: chunk.rowsCount,
      summary: index === session.chunks.length - 1 ? summary : {},
      error,
      created_at: chunk.createdAt.toISOString(),
      updated_at: chunk.updatedAt.toISOString(),
    })),
    progress: { rows_done: publishing?.rowsDone ?? 0, rows_total: session.chunks.reduce((sum, chunk) => sum + chunk.rowsCount, 0) },
    created_at: session.createdAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
}
