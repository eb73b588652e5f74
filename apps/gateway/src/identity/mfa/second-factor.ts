import { randomInt } from "node:crypto";
import type { SecretBox } from "@hearth/service-kit";
import type { IdentityTx } from "../../db";
import type { MfaRepository } from "./mfa-repository";
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
 * spend the same code. Without `tx` a check runs on its own.
 */
export function createSecondFactor(mfa: MfaRepository, box: SecretBox) {
  async function acceptTotp(user: SecondFactorUser, code: string, tx?: IdentityTx): Promise<boolean> {
    if (!user.otpSecret) return false;
    const step = await totp.verify(box.open(user.otpSecret), code.replace(/\s/g, ""), user.otpLastTimeStep);
    if (step === null) return false;
    return mfa.claimTimeStep(user.id, step, tx);
  }

  const acceptBackupCode = (userId: string, code: string, tx?: IdentityTx) =>
    mfa.spendBackupCode(userId, box.fingerprint(normaliseBackupCode(code)), new Date(), tx);

  return {
    /** True when the code is a current TOTP code or an unused backup code of the user; spends it. */
    async accept(user: SecondFactorUser, code: string, tx?: IdentityTx): Promise<boolean> {
      return (await acceptTotp(user, code, tx)) || acceptBackupCode(user.id, code, tx);
    },
    /** Only a TOTP code: enrolment is confirmed by proving the app produces them. */
    acceptTotpOnly: (user: SecondFactorUser, code: string, tx?: IdentityTx) => acceptTotp(user, code, tx),

    /** Replaces the user's backup codes; answers the plain codes, which are never stored. */
    async replaceBackupCodes(tx: IdentityTx, userId: string): Promise<string[]> {
      const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
      await mfa.replaceBackupCodes(
        tx,
        userId,
        codes.map((code) => box.fingerprint(normaliseBackupCode(code))),
      );
      return codes;
    },
  };
}
export type SecondFactor = ReturnType<typeof createSecondFactor>;
