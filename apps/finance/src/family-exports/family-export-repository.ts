import type { FinanceDb, FinanceTx } from "../db";
import type { FamilyExport, Prisma } from "../generated/prisma/client";
import { queueFamilyExport } from "./family-export-queue-queries";

/** Ended exports (completed or failed) a family keeps; a new one completing lets the oldest go. */
export const KEPT_EXPORTS = 3;

/** Sure's FamilyExport::STUCK_AFTER: an export not built this long after it was asked for fails. */
export const EXPORT_STUCK_AFTER_MS = 2 * 60 * 60 * 1000;

/** The family's exports and their archives (family_exports, family_export_chunks). */
export function createFamilyExportRepository(db: FinanceDb) {
  return {
    /**
     * A new export of the family, or the one it has waiting: one not started yet would read the
     * same rows (its snapshot is taken when it starts), so a family asking again and again gets
     * that one and never queues a pile of identical builds. One request at a time per family
     * (a transaction-scoped advisory lock), so two at once do not both create. A new export and
     * its build's job commit together.
     */
    create: (familyId: string): Promise<FamilyExport> =>
      db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('family_exports.create'), hashtext(${familyId}))`;
        const waiting = await tx.familyExport.findFirst({
          where: { familyId, status: "pending", createdAt: { gte: new Date(Date.now() - EXPORT_STUCK_AFTER_MS) } },
          orderBy: { createdAt: "asc" },
        });
        if (waiting) return waiting;
        const created = await tx.familyExport.create({ data: { familyId } });
        await queueFamilyExport(tx, familyId, created.id);
        return created;
      }),

    async list(familyId: string, window: { skip: number; take: number }): Promise<{ rows: FamilyExport[]; total: number }> {
      const [rows, total] = await Promise.all([
        db.familyExport.findMany({ where: { familyId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...window }),
        db.familyExport.count({ where: { familyId } }),
      ]);
      return { rows, total };
    },

    find: (familyId: string, id: string): Promise<FamilyExport | null> => db.familyExport.findFirst({ where: { id, familyId } }),

    /** The export while it waits for its build, or is being built. */
    unbuilt: (familyId: string, id: string) =>
      db.familyExport.findFirst({ where: { id, familyId, status: { in: ["pending", "processing"] } }, select: { id: true, createdAt: true } }),

    /** A build starts (again, after a takeover: the slices of the one before go). */
    async start(tx: FinanceTx, id: string): Promise<void> {
      await tx.familyExport.update({ where: { id }, data: { status: "processing" } });
      await tx.familyExportChunk.deleteMany({ where: { exportId: id } });
    },

    /** One slice of the archive (a plain INSERT: Prisma's create took twice as long for a 1 MiB bytea). */
    async appendChunk(tx: FinanceTx, id: string, seq: number, data: Uint8Array<ArrayBuffer>): Promise<void> {
      await tx.$executeRaw`
        INSERT INTO family_export_chunks (export_id, seq, data) VALUES (${id}::uuid, ${seq}, ${Buffer.from(data.buffer, data.byteOffset, data.byteLength)})`;
    },

    /**
     * Marks the build completed and lets older ones go: a family keeps its KEPT_EXPORTS newest
     * ended exports (completed or failed), so archives do not pile up in the database. False
     * when it is no longer being built.
     */
    async complete(tx: FinanceTx, familyId: string, id: string, byteSize: number, rowCounts: Prisma.InputJsonValue): Promise<boolean> {
      const done = await tx.familyExport.updateMany({
        where: { id, familyId, status: "processing" },
        data: { status: "completed", byteSize, rowCounts, completedAt: new Date(), error: null },
      });
      if (done.count !== 1) return false;
      // Their slices go with them (foreign key cascade). One ended in the last minutes stays a
      // while yet: a download of it may be streaming, or it is another instance's just-built one.
      await tx.$executeRaw`
        DELETE FROM family_exports WHERE id IN (
          SELECT id FROM family_exports WHERE family_id = ${familyId}::uuid AND status IN ('completed', 'failed')
           ORDER BY created_at DESC, id DESC OFFSET ${KEPT_EXPORTS})
         AND coalesce(completed_at, updated_at) < now() - interval '15 minutes'`;
      return true;
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

    /** Fails an export not yet built; its partial archive goes. */
    async fail(tx: FinanceTx, id: string, error: string): Promise<void> {
      const failed = await tx.familyExport.updateMany({
        where: { id, status: { in: ["pending", "processing"] } },
        data: { status: "failed", error: error.slice(0, 1000) },
      });
      if (failed.count === 1) await tx.familyExportChunk.deleteMany({ where: { exportId: id } });
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
