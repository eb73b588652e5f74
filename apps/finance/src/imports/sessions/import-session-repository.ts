import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb, FinanceTx } from "../../db";
import { queueImportPublish } from "../import-publish-queue-queries";
import { FAMILY_IMPORT_BYTES, reserveImportBytes } from "../import-storage-budget";
import type { CheckedChunk } from "./session-chunk-content";

/** The session with its chunks (content left out) and the import publishing it, if any. */
const SESSION_VIEW = {
  chunks: { omit: { content: true }, orderBy: { sequence: "asc" } },
} as const;

const conflict = (message: string) => new AppError("import_session_conflict", { message });

/** What one session may hold in all (chunks of 10 MB each): a client cannot park gigabytes in the database. */
export const IMPORT_SESSION_MAX_BYTES = 64 * 1024 * 1024;

/** Sure's import sessions over finance's tables (import_sessions, import_session_chunks); a publish makes one SureImport of all chunks. */
export function createImportSessionRepository(db: FinanceDb, familyBytes = FAMILY_IMPORT_BYTES) {
  /**
   * The session, locked, with the status of the import publishing it. The import is read by a
   * statement of its own once the lock is held: joined into the locking one, a request that waited
   * for the lock got the session as the holder left it (import_id set) but the import as it was
   * before the wait (none), and published the session again.
   */
  async function lockSession(tx: FinanceTx, familyId: string, id: string) {
    const [row] = await tx.$queryRaw<{ id: string; expected_chunks: number | null; import_id: string | null }[]>`
      SELECT id, expected_chunks, import_id FROM import_sessions WHERE id = ${id}::uuid AND family_id = ${familyId}::uuid FOR UPDATE`;
    if (!row) throw AppError.notFound("Import session");
    const [imported] =
      row.import_id === null ? [] : await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM imports WHERE id = ${row.import_id}::uuid`;
    return { ...row, import_status: imported?.status ?? null };
  }

  const find = (familyId: string, id: string) => db.importSession.findFirst({ where: { id, familyId }, include: SESSION_VIEW });

  return {
    find,

    /** The import publishing a session (its status, error and progress are the session's). */
    importOf: (importId: string) => db.import.findUnique({ where: { id: importId }, omit: { content: true } }),

    /** Sure's create_or_find_for!: a client_session_id names one session of the family; expected_chunks may not change once set. */
    async createOrFind(familyId: string, clientSessionId: string | null, expectedChunks: number | null) {
      const attempt = async () => {
        if (clientSessionId === null) return db.importSession.create({ data: { familyId, expectedChunks }, include: SESSION_VIEW });
        const existing = await db.importSession.findUnique({ where: { familyId_clientSessionId: { familyId, clientSessionId } } });
        if (!existing) return db.importSession.create({ data: { familyId, clientSessionId, expectedChunks }, include: SESSION_VIEW });
        if (expectedChunks !== null && existing.expectedChunks !== null && existing.expectedChunks !== expectedChunks) {
          throw conflict("client_session_id already exists with a different expected_chunks value");
        }
        if (expectedChunks !== null && existing.expectedChunks === null)
          await db.importSession.update({ where: { id: existing.id }, data: { expectedChunks } });
        return (await find(familyId, existing.id))!;
      };
      try {
        return await attempt();
      } catch (err) {
        // Two creates with one client_session_id raced: the loser finds the winner's.
        if (isUniqueViolation(err)) return attempt();
        throw err;
      }
    },

    /**
     * Sure's attach_chunk!: under the session's lock, a chunk at a sequence (and client_chunk_id)
     * already held with the same content is a no-op; with other content, or a sequence and
     * client_chunk_id naming different chunks, a 409. No chunks once publishing started.
     */
    async addChunk(familyId: string, id: string, sequence: number, clientChunkId: string | null, chunk: CheckedChunk): Promise<void> {
      await db.$transaction(async (tx) => {
        const session = await lockSession(tx, familyId, id);
        if (session.import_status === "importing" || session.import_status === "complete") throw conflict("cannot add chunks after publishing starts");
        if (session.expected_chunks !== null && sequence > session.expected_chunks) throw conflict("sequence exceeds expected_chunks");
        const bySequence = await tx.importSessionChunk.findUnique({ where: { sessionId_sequence: { sessionId: id, sequence } }, omit: { content: true } });
        const byClientId =
          clientChunkId === null
            ? null
            : await tx.importSessionChunk.findUnique({ where: { sessionId_clientChunkId: { sessionId: id, clientChunkId } }, omit: { content: true } });
        if (bySequence && byClientId && bySequence.id !== byClientId.id) throw conflict("sequence and client_chunk_id refer to different chunks");
        const existing = bySequence ?? byClientId;
        if (existing) {
          if (existing.sequence !== sequence) throw conflict("client_chunk_id already exists with a different sequence");
          if (clientChunkId !== null && existing.clientChunkId !== null && existing.clientChunkId !== clientChunkId) {
            throw conflict("sequence already exists with a different client_chunk_id");
          }
          if (existing.checksum !== chunk.checksum) throw conflict("chunk already exists with different content");
          return;
        }
        const [held] = await tx.$queryRaw<{ bytes: bigint | null }[]>`
          SELECT sum(octet_length(content)) AS bytes FROM import_session_chunks WHERE session_id = ${id}::uuid`;
        if (Number(held?.bytes ?? 0) + Buffer.byteLength(chunk.content, "utf8") > IMPORT_SESSION_MAX_BYTES) {
          throw new AppError("content_too_large", {
            message: `Import session is too large. Maximum size is ${IMPORT_SESSION_MAX_BYTES / (1024 * 1024)}MB in all.`,
          });
        }
        await reserveImportBytes(tx, familyId, Buffer.byteLength(chunk.content, "utf8"), familyBytes);
        await tx.importSessionChunk.create({
          data: {
            sessionId: id,
            sequence,
            clientChunkId,
            checksum: chunk.checksum,
            content: chunk.content,
            rowsCount: chunk.rowsCount,
            summary: chunk.summary,
          },
        });
        await tx.importSession.update({ where: { id }, data: { updatedAt: new Date() } });
      });
    },

    /**
     * Sure's publish_later: every chunk present (1..expected_chunks, or 1..the highest sent), at
     * most `maxRows` records in all; then one SureImport of all chunks in sequence order, queued for
     * the import worker. A session publishing or published is answered as it is; a failed one is
     * published anew (its failed import goes).
     */
    async publish(familyId: string, id: string, maxRows: number): Promise<{ queued: boolean }> {
      return db.$transaction(
        async (tx) => {
          const session = await lockSession(tx, familyId, id);
          if (session.import_status === "importing" || session.import_status === "complete") return { queued: false };
          const chunks = await tx.importSessionChunk.findMany({
            where: { sessionId: id },
            select: { sequence: true, rowsCount: true },
            orderBy: { sequence: "asc" },
          });
          // Sure's ImportSession#validate_publishable_chunks!: ConflictError, 409.
          if (chunks.length === 0) throw conflict("import session has no chunks");
          const expected = session.expected_chunks ?? Math.max(...chunks.map((chunk) => chunk.sequence));
          const held = new Set(chunks.map((chunk) => chunk.sequence));
          const missing = Array.from({ length: expected }, (_, i) => i + 1).filter((sequence) => !held.has(sequence));
          if (missing.length > 0) {
            throw conflict(`import session chunks do not match expected sequences (missing sequences: ${missing.slice(0, 20).join(", ")})`);
          }
          const rows = chunks.reduce((sum, chunk) => sum + chunk.rowsCount, 0);
          if (rows > maxRows) throw new AppError("max_row_count_exceeded", { message: "Import session has too many rows to publish." });
          if (session.import_id) await tx.import.deleteMany({ where: { id: session.import_id, status: { in: ["failed", "pending"] } } });
          const [created] = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO imports (id, family_id, type, status, configuration, content, rows_count, valid_rows_count, publish_requested_at, created_at, updated_at)
            SELECT gen_random_uuid(), ${familyId}::uuid, 'SureImport', 'importing', '{}'::jsonb, string_agg(content, E'\\n' ORDER BY sequence), ${rows}, ${rows}, now(), now(), now()
              FROM import_session_chunks WHERE session_id = ${id}::uuid
            RETURNING id`;
          await tx.importSession.update({ where: { id }, data: { importId: created!.id } });
          await queueImportPublish(tx, familyId, created!.id);
          return { queued: true };
        },
        { timeout: 60_000 },
      );
    },
  };
}
export type ImportSessionRepository = ReturnType<typeof createImportSessionRepository>;
