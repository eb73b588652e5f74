import type { IdentityDb, IdentityTx } from "../../db";
import type { User } from "../../generated/prisma/client";
import { announceCredentialChange } from "../auth/credential-announcements";

/** The columns of their own record a user may change. */
export type UserChanges = Partial<Pick<User, "firstName" | "lastName" | "email" | "uiLayout" | "passwordHash">>;

/** A user's own record. Methods taking `tx` run inside the caller's transaction. */
export function createUserRepository(db: IdentityDb) {
  return {
    find: (userId: string) => db.user.findUniqueOrThrow({ where: { id: userId } }),

    /** Whether the user turned AI on (Sure's enable_ai): the assistant's routes answer only them. */
    async aiEnabledOf(userId: string): Promise<boolean> {
      const user = await db.user.findUnique({ where: { id: userId }, select: { aiEnabled: true } });
      return user?.aiEnabled ?? false;
    },

    enableAi: (userId: string) => db.user.update({ where: { id: userId }, data: { aiEnabled: true } }),

    /** A taken email fails as a unique violation. */
    update: (tx: IdentityTx, userId: string, changes: UserChanges) => tx.user.update({ where: { id: userId }, data: changes }),

    findWithMembership: (tx: IdentityTx, userId: string) => tx.user.findUniqueOrThrow({ where: { id: userId }, include: { membership: true } }),

    async delete(tx: IdentityTx, userId: string): Promise<void> {
      await tx.user.delete({ where: { id: userId } });
      await announceCredentialChange(tx, [userId]);
    },

    /** Who a user is, as audit events name them. */
    findRef: (tx: IdentityTx, userId: string) => tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true } }),
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
