import type { FinanceDb, FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";

/** Import sessions left unpublished: deleted with their chunks a while after their last change. */
export const IMPORT_SESSION_EXPIRY_QUEUE = "finance.import-session-expiry";

/** Unpublished: no import, or one that did not complete (failed or pending again); never one importing or complete. */
const UNPUBLISHED = Prisma.sql`(s.import_id IS NULL OR NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = s.import_id AND i.status IN ('importing', 'complete', 'reverting')))`;

/** The family's session, locked for the transaction, if it is unpublished and unchanged for `ttlMs`; else null. */
export async function lockExpiredSession(tx: FinanceTx, familyId: string, sessionId: string, ttlMs: number): Promise<{ importId: string | null } | null> {
  const [expired] = await tx.$queryRaw<{ import_id: string | null }[]>`
    SELECT s.import_id::text FROM import_sessions s
     WHERE s.id = ${sessionId}::uuid AND s.family_id = ${familyId}::uuid
       AND s.updated_at < now() - ${ttlMs} * interval '1 millisecond' AND ${UNPUBLISHED}
       FOR UPDATE OF s`;
  return expired ? { importId: expired.import_id } : null;
}

/** Deletes the import unless it got further than pending or failed. */
export async function deleteUnfinishedImport(tx: FinanceTx, importId: string): Promise<void> {
  await tx.import.deleteMany({ where: { id: importId, status: { in: ["pending", "failed"] } } });
}

/** Deletes the family's session (its chunks go with it): how many went, 0 or 1. */
export async function deleteSession(tx: FinanceTx, familyId: string, sessionId: string): Promise<number> {
  const removed = await tx.importSession.deleteMany({ where: { id: sessionId, familyId } });
  return removed.count;
}

/** Queues the expiry of every session unpublished and unchanged for `ttlMs` that has none waiting (1,000 at a time). */
export function queueSessionExpiries(db: FinanceDb, ttlMs: number): Promise<number> {
  return db.$executeRaw`
    INSERT INTO jobs (queue, family_id, subject_id, dedupe_key)
    SELECT ${IMPORT_SESSION_EXPIRY_QUEUE}, s.family_id, s.id, s.id::text FROM import_sessions s
     WHERE s.updated_at < now() - ${ttlMs} * interval '1 millisecond' AND ${UNPUBLISHED}
       AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${IMPORT_SESSION_EXPIRY_QUEUE} AND j.subject_id = s.id AND j.status IN ('queued', 'running'))
     LIMIT 1000
    ON CONFLICT (queue, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL DO NOTHING`;
}
