import { AppError, type Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../../db";
import { announceCredentialChange, announceFamilyCredentialChange } from "../auth/credential-announcements";

const MEMBER_INCLUDE = { membership: { select: { role: true } } } as const;

/** A family's memberships. Methods taking `tx` run inside the caller's transaction. */
export function createMemberRepository(db: IdentityDb) {
  return {
    list: (familyId: string) => db.user.findMany({ where: { membership: { familyId } }, include: MEMBER_INCLUDE, orderBy: { createdAt: "asc" } }),

    /** The member `id` of the family, or 404: another family's user does not exist here. */
    async find(tx: IdentityTx, familyId: string, id: string) {
      const user = await tx.user.findFirst({ where: { id, membership: { familyId } }, include: MEMBER_INCLUDE });
      if (!user?.membership) throw AppError.notFound("User");
      return { ...user, membership: user.membership };
    },

    /**
     * Locks the family's memberships for the rest of the transaction, so two admins demoting,
     * suspending or deleting each other at once cannot leave the family without one.
     */
    async lockFamily(tx: IdentityTx, familyId: string): Promise<void> {
      await tx.$queryRaw`SELECT id FROM memberships WHERE family_id = ${familyId}::uuid FOR UPDATE`;
    },

    /** Active (not suspended) admins of the family other than `exceptUserId`. */
    otherActiveAdmins: (tx: IdentityTx, familyId: string, exceptUserId: string): Promise<number> =>
      tx.membership.count({ where: { familyId, role: "admin", userId: { not: exceptUserId }, user: { suspendedAt: null } } }),

    /** Members of the family other than `userId`, whatever their role or status. */
    otherMembers: (tx: IdentityTx, familyId: string, userId: string): Promise<number> => tx.membership.count({ where: { familyId, userId: { not: userId } } }),

    async setRole(tx: IdentityTx, userId: string, role: Role): Promise<void> {
      await tx.membership.update({ where: { userId }, data: { role } });
      await announceCredentialChange(tx, [userId]);
    },

    async setSuspended(tx: IdentityTx, userId: string, suspendedAt: Date | null) {
      const member = await tx.user.update({ where: { id: userId }, data: { suspendedAt }, include: MEMBER_INCLUDE });
      await announceCredentialChange(tx, [userId]);
      return member;
    },

    async deleteFamily(tx: IdentityTx, familyId: string): Promise<void> {
      await announceFamilyCredentialChange(tx, familyId);
      await tx.family.delete({ where: { id: familyId } });
    },
  };
}
export type MemberRepository = ReturnType<typeof createMemberRepository>;
