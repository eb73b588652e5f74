import type { FinanceTx } from "../db";

/** The family's import-storage lock, for the transaction (see reserveImportBytes). */
export async function lockImportBytes(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('hearth.finance.import-bytes:' || ${familyId}::text, 0))`;
}

/** Bytes of uploaded content the family keeps: its imports' files and its unpublished sessions' chunks. */
export async function importBytesHeld(tx: FinanceTx, familyId: string): Promise<number> {
  const [held] = await tx.$queryRaw<{ bytes: bigint }[]>`
    SELECT (SELECT coalesce(sum(octet_length(content)), 0) FROM imports WHERE family_id = ${familyId}::uuid)
         + (SELECT coalesce(sum(octet_length(c.content)), 0) FROM import_session_chunks c
              JOIN import_sessions s ON s.id = c.session_id
             WHERE s.family_id = ${familyId}::uuid
               -- A published session's chunks are its import's file, counted as that.
               AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = s.import_id)) AS bytes`;
  return Number(held?.bytes ?? 0);
}
