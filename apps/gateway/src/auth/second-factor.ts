import { randomInt } from "node:crypto";
import type { IdentityDb, IdentityTx } from "../db";
import type { SecretBox } from "../crypto/secret-box";
import { totp } from "./totp";

const BACKUP_CODE_COUNT = 10;
// No 0/1/i/l/o: codes are read off paper and typed by hand. 12 characters of 31 ≈ 59 bits.
const BACKUP_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

export interface SecondFactorUser {
  id: string;
  otpSecret: string | null;
  otpEnabledAt: Date | null;
  otpLastTimeStep: number | null;
}

function newBackupCode(): string {
  const chars = Array.from({ length: 12 }, () => BACKUP_ALPHABET.charAt(randomInt(BACKUP_ALPHABET.length)));
  return `${chars.slice(0, 4).join("")}-${chars.slice(4, 8).join("")}-${chars.slice(8).join("")}`;
}

/** Spaces and dashes are typing noise; case does not matter. */
function normaliseBackupCode(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

/**
 * The second factor of a login: a TOTP code (each time step accepted once) or a one-time
 * backup code. Checks claim what they accept atomically, so two concurrent logins cannot
 * spend the same code.
 */
export function createSecondFactor(db: IdentityDb, box: SecretBox) {
  async function acceptTotp(tx: IdentityTx | IdentityDb, user: SecondFactorUser, code: string): Promise<boolean> {
    if (!user.otpSecret) return false;
    const step = await totp.verify(box.open(user.otpSecret), code.replace(/\s/g, ""), user.otpLastTimeStep);
    if (step === null) return false;
    const claimed = await tx.user.updateMany({
      where: { id: user.id, OR: [{ otpLastTimeStep: null }, { otpLastTimeStep: { lt: step } }] },
      data: { otpLastTimeStep: step },
    });
    return claimed.count === 1;
  }

  async function acceptBackupCode(tx: IdentityTx | IdentityDb, userId: string, code: string): Promise<boolean> {
    const used = await tx.mfaBackupCode.updateMany({
      where: { userId, codeHash: box.fingerprint(normaliseBackupCode(code)), usedAt: null },
      data: { usedAt: new Date() },
    });
    return used.count === 1;
  }

  return {
    /** True when the code is a current TOTP code or an unused backup code of the user; spends it. */
    async accept(user: SecondFactorUser, code: string, tx: IdentityTx | IdentityDb = db): Promise<boolean> {
      return (await acceptTotp(tx, user, code)) || acceptBackupCode(tx, user.id, code);
    },
    /** Only a TOTP code: enrolment is confirmed by proving the app produces them. */
    acceptTotpOnly: (user: SecondFactorUser, code: string, tx: IdentityTx | IdentityDb = db) => acceptTotp(tx, user, code),

    /** Replaces the user's backup codes; answers the plain codes, which are never stored. */
    async replaceBackupCodes(tx: IdentityTx, userId: string): Promise<string[]> {
      const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
      await tx.mfaBackupCode.deleteMany({ where: { userId } });
      await tx.mfaBackupCode.createMany({ data: codes.map((code) => ({ userId, codeHash: box.fingerprint(normaliseBackupCode(code)) })) });
      return codes;
    },
  };
}
export type SecondFactor = ReturnType<typeof createSecondFactor>;
