import type { IdentityDb, IdentityTx } from "../../db";

/**
 * A user's TOTP second factor (sealed seed, last accepted time step) and backup codes (keyed
 * HMACs). Methods taking `tx` first run inside the caller's transaction; a trailing `tx` is optional.
 */
export function createMfaRepository(db: IdentityDb) {
  return {
    findUser: (userId: string) => db.user.findUniqueOrThrow({ where: { id: userId } }),

    countUnusedBackupCodes: (userId: string) => db.mfaBackupCode.count({ where: { userId, usedAt: null } }),

    /** A new sealed seed, pending until confirmed; any earlier pending one is replaced. */
    async startEnrolment(userId: string, sealedSecret: string): Promise<void> {
      await db.user.update({ where: { id: userId }, data: { otpSecret: sealedSecret, otpLastTimeStep: null } });
    },

    async enable(tx: IdentityTx, userId: string, now: Date): Promise<void> {
      await tx.user.update({ where: { id: userId }, data: { otpEnabledAt: now } });
    },

    /** Forgets the seed and every backup code. */
    async disable(tx: IdentityTx, userId: string): Promise<void> {
      await tx.user.update({ where: { id: userId }, data: { otpSecret: null, otpEnabledAt: null, otpLastTimeStep: null } });
      await tx.mfaBackupCode.deleteMany({ where: { userId } });
    },

    async replaceBackupCodes(tx: IdentityTx, userId: string, codeHashes: string[]): Promise<void> {
      await tx.mfaBackupCode.deleteMany({ where: { userId } });
      await tx.mfaBackupCode.createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash })) });
    },

    /** Claims a TOTP time step later than the last one accepted; false when it is not (a replay, or a concurrent login). */
    async claimTimeStep(userId: string, step: number, tx: IdentityTx | IdentityDb = db): Promise<boolean> {
      const claimed = await tx.user.updateMany({
        where: { id: userId, OR: [{ otpLastTimeStep: null }, { otpLastTimeStep: { lt: step } }] },
        data: { otpLastTimeStep: step },
      });
      return claimed.count === 1;
    },

    /** Spends an unused backup code of the user; false when there is none of this hash. */
    async spendBackupCode(userId: string, codeHash: string, now: Date, tx: IdentityTx | IdentityDb = db): Promise<boolean> {
      const used = await tx.mfaBackupCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: now } });
      return used.count === 1;
    },
  };
}
export type MfaRepository = ReturnType<typeof createMfaRepository>;
