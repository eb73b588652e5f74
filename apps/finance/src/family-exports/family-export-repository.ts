import type { FinanceDb } from "../db";
import { Prisma, type FamilyExport } from "../generated/prisma/client";

/** Ended exports (completed or failed) a family keeps; a new one completing lets the oldest go. */
export const KEPT_EXPORTS = 3;

/** Sure's FamilyExport::STUCK_AFTER: an export pending or processing this long failed with its worker. */
export const EXPORT_STUCK_AFTER_MS = 2 * 60 * 60 * 1000;

/**
 * How long after its last heartbeat (its claim, or a renewal with each slice) a build whose lock
 * nobody holds counts as a dead worker's (a live worker takes the lock within seconds of its claim).
 */
export const DEAD_BUILDER_TAKEOVER_MS = 30_000;

/** The advisory lock a build holds for its whole snapshot transaction: the sign its worker is alive. */
const buildLockSql = (exportId: Prisma.Sql): Prisma.Sql => Prisma.sql`hashtextextended('hearth.finance.export-build:' || ${exportId}::text, 0)`;

/** Takes the export's build lock in the build's transaction: false when another live worker holds it. */
export async function takeBuildLock(tx: Prisma.TransactionClient, exportId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ taken: boolean }[]>`SELECT pg_try_advisory_xact_lock(${buildLockSql(Prisma.sql`${exportId}::uuid`)}) AS taken`;
  return row?.taken === true;
}

export interface ClaimedExport {
  id: string;
  familyId: string;
  /** The hold's token: renewals and the finish must carry it (a worker that lost it writes nothing more). */
  lease: Date;
}

/** The export is no longer this worker's (its lease lapsed and another took it, or it was failed). */
export class ExportTakenOver extends Error {
  constructor() {
    super("the export was taken over by another worker");
    this.name = "ExportTakenOver";
  }
}

/** The family's exports and their archives (family_exports, family_export_chunks). */
export function createFamilyExportRepository(db: FinanceDb) {
  return {
    /**
     * A new export of the family, or the one it has waiting: one not started yet would read the
     * same rows (its snapshot is taken when it starts), so a family asking again and again gets
     * that one and never queues a pile of identical builds. One request at a time per family
     * (a transaction-scoped advisory lock), so two at once do not both create.
     */
    create: (familyId: string): Promise<FamilyExport> =>
      db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('family_exports.create'), hashtext(${familyId}))`;
        const waiting = await tx.familyExport.findFirst({
          where: { familyId, status: "pending", createdAt: { gte: new Date(Date.now() - EXPORT_STUCK_AFTER_MS) } },
          orderBy: { createdAt: "asc" },
        });
        return waiting ?? tx.familyExport.create({ data: { familyId } });
      }),

    async list(familyId: string, window: { skip: number; take: number }): Promise<{ rows: FamilyExport[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.familyExport.findMany({ where: { familyId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...window }),
        db.familyExport.count({ where: { familyId } }),
      ]);
      return { rows, total };
    },

    find: (familyId: string, id: string): Promise<FamilyExport | null> => db.familyExport.findFirst({ where: { id, familyId } }),

    /** Sure's FamilyExport.clean: exports stuck pending or processing past EXPORT_STUCK_AFTER fail (their partial archive goes). */
    async failStuck(): Promise<number> {
      return db.$executeRaw`
        UPDATE family_exports SET status = 'failed', error = 'The export did not finish in time', lease_expires_at = NULL, updated_at = now()
         WHERE status IN ('pending', 'processing') AND created_at < now() - ${EXPORT_STUCK_AFTER_MS} * interval '1 millisecond'
           AND (lease_expires_at IS NULL OR lease_expires_at < now())`;
    },

    /**
     * The oldest export waiting (or whose worker's lease lapsed, or whose worker is gone), held
     * for `leaseMs`; its old slices are dropped, it is built again. A family has at most one
     * waiting (create), so one family's requests never queue ahead of others' more than one build.
     *
     * A building worker holds the export's advisory lock (takeBuildLock) for as long as its
     * snapshot transaction lives; PostgreSQL drops it when the worker's connection dies. A build
     * whose lease lapsed or whose last heartbeat (claim or renewal) is over `takeoverAfterMs` old
     * is taken over only when its lock is free: a dead worker's is taken at once, not after the
     * rest of its lease, and a live but slow one is never taken from it.
     */
    async claim(leaseMs: number, takeoverAfterMs: number = DEAD_BUILDER_TAKEOVER_MS): Promise<ClaimedExport | null> {
      const [row] = await db.$queryRaw<{ id: string; family_id: string; lease_expires_at: Date }[]>`
        UPDATE family_exports SET status = 'processing', lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', claimed_at = now(), updated_at = now()
         WHERE id = (
           SELECT x.id FROM family_exports x
            WHERE (x.status = 'pending'
                   OR (x.status = 'processing'
                       -- CASE: the lock is only ever tried on a build that looks dead, never on one just claimed.
                       AND CASE WHEN x.lease_expires_at < now() OR x.claimed_at < now() - ${takeoverAfterMs} * interval '1 millisecond'
                                THEN pg_try_advisory_xact_lock(${buildLockSql(Prisma.sql`x.id`)}) ELSE false END))
              AND x.created_at >= now() - ${EXPORT_STUCK_AFTER_MS} * interval '1 millisecond'
            ORDER BY x.created_at LIMIT 1 FOR UPDATE OF x SKIP LOCKED)
        RETURNING id, family_id, lease_expires_at`;
      if (!row) return null;
      await db.familyExportChunk.deleteMany({ where: { exportId: row.id } });
      return { id: row.id, familyId: row.family_id, lease: row.lease_expires_at };
    },

    /**
     * Whether the claim is still this worker's, read once it holds the build lock: outside its
     * build's snapshot (taken as the lock was asked for), so a takeover committed meanwhile is seen.
     */
    async stillClaimed(claim: ClaimedExport): Promise<boolean> {
      const [row] = await db.$queryRaw<{ id: string }[]>`
        SELECT id FROM family_exports WHERE id = ${claim.id}::uuid AND status = 'processing' AND lease_expires_at = ${claim.lease}`;
      return row !== undefined;
    },

    /**
     * Extends the hold and beats its heart (claimed_at): the last renewal comes with the last
     * slice, just before the build's transaction (and its lock) ends and it completes, so a build
     * that ran long is not taken for dead in that gap. The new token, or null when the export is
     * no longer this worker's.
     */
    async renew(claim: ClaimedExport, leaseMs: number): Promise<Date | null> {
      const [row] = await db.$queryRaw<{ lease_expires_at: Date }[]>`
        UPDATE family_exports SET lease_expires_at = now() + ${leaseMs} * interval '1 millisecond', claimed_at = now()
         WHERE id = ${claim.id}::uuid AND status = 'processing' AND lease_expires_at = ${claim.lease}
        RETURNING lease_expires_at`;
      return row?.lease_expires_at ?? null;
    },

    /**
     * One slice of the archive, only while the export is still this worker's (a plain INSERT: Prisma's
     * create took twice as long for a 1 MiB bytea). The export's row is share-locked by the check,
     * so a new claim (which moves the lease, then deletes the slices) waits for this INSERT or makes it
     * find the hold gone: a worker whose lease lapsed never adds a stale slice to another's build.
     */
    async appendChunk(claim: ClaimedExport, seq: number, data: Uint8Array<ArrayBuffer>): Promise<void> {
      const inserted = await db.$executeRaw`
        INSERT INTO family_export_chunks (export_id, seq, data)
        SELECT ${claim.id}::uuid, ${seq}, ${Buffer.from(data.buffer, data.byteOffset, data.byteLength)}
         WHERE EXISTS (SELECT 1 FROM family_exports
                        WHERE id = ${claim.id}::uuid AND status = 'processing' AND lease_expires_at = ${claim.lease} FOR SHARE)`;
      if (inserted !== 1) throw new ExportTakenOver();
    },

    /** Completed, only while still held: a worker that lost its hold cannot complete someone else's build. */
    /**
     * Marks the build completed and lets older ones go: a family keeps its KEPT_EXPORTS newest
     * ended exports (completed or failed), so archives do not pile up in the database.
     */
    async complete(claim: ClaimedExport, byteSize: number, rowCounts: Prisma.InputJsonValue): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const done = await tx.familyExport.updateMany({
          where: { id: claim.id, status: "processing", leaseExpiresAt: claim.lease },
          data: { status: "completed", byteSize, rowCounts, leaseExpiresAt: null, completedAt: new Date(), error: null },
        });
        if (done.count !== 1) return false;
        // Their slices go with them (foreign key cascade). One ended in the last minutes stays a
        // while yet: a download of it may be streaming, or it is another instance's just-built one.
        await tx.$executeRaw`
          DELETE FROM family_exports WHERE id IN (
            SELECT id FROM family_exports WHERE family_id = ${claim.familyId}::uuid AND status IN ('completed', 'failed')
             ORDER BY created_at DESC, id DESC OFFSET ${KEPT_EXPORTS})
           AND coalesce(completed_at, updated_at) < now() - interval '15 minutes'`;
        return true;
      });
    },

    /**
     * Deletes a completed or failed export and its archive: true when it went, false while it is
     * waiting or being built, null when the family has no such export.
     */
    async remove(familyId: string, id: string): Promise<boolean | null> {
      const found = await db.familyExport.findFirst({ where: { id, familyId }, select: { status: true } });
      if (!found) return null;
      const removed = await db.familyExport.deleteMany({ where: { id, familyId, status: { in: ["completed", "failed"] } } });
      return removed.count === 1;
    },

    async fail(claim: ClaimedExport, error: string): Promise<void> {
      const failed = await db.familyExport.updateMany({
        where: { id: claim.id, status: "processing", leaseExpiresAt: claim.lease },
        data: { status: "failed", error: error.slice(0, 1000), leaseExpiresAt: null },
      });
      if (failed.count === 1) await db.familyExportChunk.deleteMany({ where: { exportId: claim.id } });
    },

    /** One slice of the family's completed export, with whether it is the last one. */
    async chunk(familyId: string, exportId: string, seq: number): Promise<{ data: Uint8Array; last: boolean; createdAt: Date; byteSize: number } | null> {
      const [row] = await db.$queryRaw<{ data: Uint8Array; last_seq: number; created_at: Date; byte_size: bigint }[]>`
        SELECT c.data, (SELECT max(seq) FROM family_export_chunks WHERE export_id = x.id) AS last_seq, x.created_at, x.byte_size
          FROM family_exports x JOIN family_export_chunks c ON c.export_id = x.id AND c.seq = ${seq}
         WHERE x.id = ${exportId}::uuid AND x.family_id = ${familyId}::uuid AND x.status = 'completed'`;
      return row ? { data: row.data, last: row.last_seq === seq, createdAt: row.created_at, byteSize: Number(row.byte_size) } : null;
    },
  };
}
export type FamilyExportRepository = ReturnType<typeof createFamilyExportRepository>;
