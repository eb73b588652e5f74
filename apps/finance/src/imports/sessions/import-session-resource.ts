import type { ImportSession } from "@hearth/contracts";
import type { Import, ImportSession as SessionRow, ImportSessionChunk } from "../../generated/prisma/client";

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

function mergedRecords(chunks: Omit<ImportSessionChunk, "content">[]): Record<string, Record<string, number>> {
  const records: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const chunk of chunks) {
    for (const [type, count] of Object.entries((chunk.summary as { records?: Record<string, number> }).records ?? {}))
      records[type] = (records[type] ?? 0) + count;
  }
  return { records: { ...records } };
}

export function toImportSessionResource(
  session: SessionRow & { chunks: Omit<ImportSessionChunk, "content">[] },
  publishing: Omit<Import, "content"> | null,
): ImportSession {
  const status = statusOf(publishing);
  const error = status === "failed" && publishing?.error ? { code: "import_failed", message: publishing.error } : null;
  const written = (publishing?.result as Record<string, number> | null) ?? null;
  return {
    id: session.id,
    type: "SureImport",
    status,
    client_session_id: session.clientSessionId,
    expected_chunks: session.expectedChunks,
    chunks_count: session.chunks.length,
    summary: written ? { ...mergedRecords(session.chunks), written } : mergedRecords(session.chunks),
    error,
    chunks: session.chunks.map((chunk) => ({
      id: chunk.id,
      sequence: chunk.sequence,
      client_chunk_id: chunk.clientChunkId,
      status,
      rows_count: chunk.rowsCount,
      summary: { records: (chunk.summary as { records?: Record<string, number> }).records ?? {} },
      error,
      created_at: chunk.createdAt.toISOString(),
      updated_at: chunk.updatedAt.toISOString(),
    })),
    progress: { rows_done: publishing?.rowsDone ?? 0, rows_total: session.chunks.reduce((sum, chunk) => sum + chunk.rowsCount, 0) },
    created_at: session.createdAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
}
