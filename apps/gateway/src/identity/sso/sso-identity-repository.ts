import type { IdentityDb, IdentityTx } from "../../db";

/** The provider accounts a user linked. Methods taking `tx` run inside the caller's transaction. */
export function createSsoIdentityRepository(db: IdentityDb) {
  return {
    list: (userId: string) => db.ssoIdentity.findMany({ where: { userId }, include: { provider: true }, orderBy: { createdAt: "asc" } }),

    /** The user's identity of this id with its provider and user, or null. */
    findOwned: (tx: IdentityTx, userId: string, id: string) => tx.ssoIdentity.findFirst({ where: { id, userId }, include: { provider: true, user: true } }),

    count: (tx: IdentityTx, userId: string) => tx.ssoIdentity.count({ where: { userId } }),

    async delete(tx: IdentityTx, id: string): Promise<void> {
      await tx.ssoIdentity.delete({ where: { id } });
    },
  };
}
export type SsoIdentityRepository = ReturnType<typeof createSsoIdentityRepository>;
