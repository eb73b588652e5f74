import type { Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../../db";

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string | null;
  lastName: string | null;
}

/** Accounts as sign-up and sign-in see them: a user with their family membership. */
export function createAuthRepository(db: IdentityDb) {
  return {
    findLoginUser: (email: string) => db.user.findUnique({ where: { email }, include: { membership: true } }),

    async createFamily(tx: IdentityTx): Promise<string> {
      return (await tx.family.create({ data: {} })).id;
    },

    /** The user and their membership of `familyId` in `role`; a taken email fails as a unique violation. */
    async createAccount(tx: IdentityTx, user: NewUser, familyId: string, role: Role) {
      const created = await tx.user.create({ data: user });
      await tx.membership.create({ data: { userId: created.id, familyId, role } });
      return created;
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
