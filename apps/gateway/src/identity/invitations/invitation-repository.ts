import type { Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../../db";

export interface NewInvitation {
  email: string;
  role: Role;
  codeHash: string;
  invitedById: string;
  expiresAt: Date;
}

/** A family's invitations; only the code's SHA-256 is stored. Methods taking `tx` run inside the caller's transaction. */
export function createInvitationRepository(db: IdentityDb) {
  return {
    list: (familyId: string) => db.invitation.findMany({ where: { familyId }, orderBy: { createdAt: "desc" } }),

    async isEmailRegistered(email: string): Promise<boolean> {
      return (await db.user.findUnique({ where: { email }, select: { id: true } })) !== null;
    },

    /** Creates the invitation, replacing a pending one of the family for the same email. */
    replacePending: (familyId: string, invitation: NewInvitation) =>
      db.$transaction(async (tx) => {
        await tx.invitation.deleteMany({ where: { familyId, email: invitation.email, acceptedAt: null } });
        return tx.invitation.create({ data: { familyId, ...invitation } });
      }),

    /** False when the family has no pending invitation of this id. */
    async revokePending(familyId: string, id: string): Promise<boolean> {
      const { count } = await db.invitation.deleteMany({ where: { id, familyId, acceptedAt: null } });
      return count > 0;
    },

    findByCode: (tx: IdentityTx, codeHash: string) => tx.invitation.findUnique({ where: { codeHash } }),

    /** Marks a pending invitation accepted; false when it was accepted meanwhile. */
    async accept(tx: IdentityTx, id: string, now: Date): Promise<boolean> {
      const claimed = await tx.invitation.updateMany({ where: { id, acceptedAt: null }, data: { acceptedAt: now } });
      return claimed.count === 1;
    },
  };
}
export type InvitationRepository = ReturnType<typeof createInvitationRepository>;
