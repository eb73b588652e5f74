import type { OutputOf } from "@hearth/contracts";
import type { User } from "../../generated/prisma/client";

export function toMfaStatusResource(user: Pick<User, "otpSecret" | "otpEnabledAt">, backupCodesRemaining: number): OutputOf<"mfa.status"> {
  return { enabled: user.otpEnabledAt !== null, pending: user.otpSecret !== null && user.otpEnabledAt === null, backup_codes_remaining: backupCodesRemaining };
}

/** Fresh backup codes, shown this once: only their HMACs are kept. */
export function toBackupCodesResource(codes: string[]): OutputOf<"mfa.confirm"> {
  return { enabled: true, pending: false, backup_codes_remaining: codes.length, backup_codes: codes };
}
