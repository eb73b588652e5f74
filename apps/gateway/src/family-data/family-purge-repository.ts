import type { FamilyDataService } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../db";

export type FamilyPurgeKind = "reset" | "family_deleted";

export interface ClaimedPurge {
  id: string;
  familyId: string;
  kind: FamilyPurgeKind;
  pendingServices: FamilyDataService[];
  attempts: number;
}

/** The gateway's record of family purges in progress: written with the request, worked by the purger under a lease. */
export function createFamilyPurgeRepository(db: IdentityDb) {
  return {
    /** The family's reset that has not finished yet, if one was asked for; read in `tx` when given (under the family's lock). */
    openReset: (familyId: string, tx: IdentityTx | IdentityDb = db) =>
      tx.familyPurge.findFirst({ where: { familyId, kind: "reset", completedAt: null }, orderBy: { createdAt: "asc" } }),

    create: (tx: IdentityTx, purge: { familyId: string; kind: FamilyPurgeKind; requestedById: string | null; services: readonly FamilyDataService[] }) =>
      tx.familyPurge.create({
        data: { familyId: purge.familyId, kind: purge.kind, requestedById: purge.requestedById, pendingServices: [...purge.services] },
      }),

    /**
     * Takes the oldest due purge nobody holds (or whose holder's lease lapsed: a gateway that
     * died midway) for `leaseMs`. SKIP LOCKED: gateways sharing the database take different ones.
     */
    async claimDue(leaseMs: number): Promise<ClaimedPurge | null> {
      const rows = await db.$queryRaw<{ id: string; family_id: string; kind: FamilyPurgeKind; pending_services: FamilyDataService[]; attempts: number }[]>`
        UPDATE family_purges SET locked_until = now() + make_interval(secs => ${leaseMs / 1000}), attempts = attempts + 1
        WHERE id = (
          SELECT id FROM family_purges
          WHERE completed_at IS NULL AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
          ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, family_id, kind, pending_services, attempts`;
      const row = rows[0];
      return row ? { id: row.id, familyId: row.family_id, kind: row.kind, pendingServices: row.pending_services, attempts: row.attempts } : null;
    },

    /** Extends the lease while steps go on; false when it was lost (another gateway took the purge over). */
    async renew(id: string, leaseMs: number): Promise<boolean> {
      const renewed = await db.$executeRaw`
        UPDATE family_purges SET locked_until = now() + make_interval(secs => ${leaseMs / 1000})
        WHERE id = ${id}::uuid AND completed_at IS NULL AND locked_until > now()`;
      return renewed === 1;
    },

    /** One service holds nothing more of the family: it is not asked again, even after a restart. */
    async serviceDone(id: string, service: FamilyDataService): Promise<void> {
      await db.$executeRaw`UPDATE family_purges SET pending_services = array_remove(pending_services, ${service}) WHERE id = ${id}::uuid`;
    },

    async complete(id: string): Promise<void> {
      await db.familyPurge.update({ where: { id }, data: { completedAt: new Date(), lockedUntil: null, lastError: null } });
    },

    /** Lets go of a purge that failed a step, to be tried again from where it stopped at `retryAt`. */
    async release(id: string, error: string, retryAt: Date): Promise<void> {
      await db.familyPurge.update({ where: { id }, data: { lockedUntil: null, lastError: error.slice(0, 1000), nextAttemptAt: retryAt } });
    },
  };
}
export type FamilyPurgeRepository = ReturnType<typeof createFamilyPurgeRepository>;
