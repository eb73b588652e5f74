import { AppError } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import type { SecretBox } from "../crypto/secret-box";
import { recordIdentityEvent } from "../events/identity-events";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { SecondFactor } from "./second-factor";
import { totp } from "./totp";

export interface MfaHandlerDeps {
  db: IdentityDb;
  box: SecretBox;
  secondFactor: SecondFactor;
  onEventsWritten: () => void;
}

const INVALID_CODE = AppError.validation(["Otp code is invalid"]);

/** Enrolment, confirmation, backup codes and removal of the signed-in user's TOTP second factor. */
export function createMfaHandlers({ db, box, secondFactor, onEventsWritten }: MfaHandlerDeps) {
  async function statusOf(userId: string) {
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    const remaining = await db.mfaBackupCode.count({ where: { userId, usedAt: null } });
    return { enabled: user.otpEnabledAt !== null, pending: user.otpSecret !== null && user.otpEnabledAt === null, backup_codes_remaining: remaining };
  }

  async function enabledUser(userId: string) {
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    if (!user.otpEnabledAt) throw new AppError("conflict", { message: "Two-factor authentication is not enabled" });
    return user;
  }

  const status: LocalHandler<"mfa.status"> = async ({ actor }) => statusOf(requireActor(actor).userId);

  /** A new seed each time until confirmed; once enabled, it must be disabled first. */
  const enrol: LocalHandler<"mfa.enrol"> = async ({ actor }) => {
    const user = await db.user.findUniqueOrThrow({ where: { id: requireActor(actor).userId } });
    if (user.otpEnabledAt) throw new AppError("conflict", { message: "Two-factor authentication is already enabled" });
    const secret = totp.newSecret();
    await db.user.update({ where: { id: user.id }, data: { otpSecret: box.seal(secret), otpLastTimeStep: null } });
    return { secret, provisioning_uri: totp.provisioningUri(secret, user.email) };
  };

  const confirm: LocalHandler<"mfa.confirm"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    if (user.otpEnabledAt) throw new AppError("conflict", { message: "Two-factor authentication is already enabled" });
    if (!user.otpSecret) throw new AppError("conflict", { message: "Start enrolment first (POST /api/v1/auth/mfa)" });
    const codes = await db.$transaction(async (tx) => {
      if (!(await secondFactor.acceptTotpOnly(user, input.otp_code, tx))) throw INVALID_CODE;
      await tx.user.update({ where: { id: userId }, data: { otpEnabledAt: new Date() } });
      const backupCodes = await secondFactor.replaceBackupCodes(tx, userId);
      await recordIdentityEvent(tx, "user.updated", { familyId, user, request, sessionId, changes: { mfa_enabled: { old: false, new: true } } });
      return backupCodes;
    });
    onEventsWritten();
    return { enabled: true, pending: false, backup_codes_remaining: codes.length, backup_codes: codes };
  };

  const regenerateBackupCodes: LocalHandler<"mfa.regenerateBackupCodes"> = async ({ actor, input }) => {
    const user = await enabledUser(requireActor(actor).userId);
    const codes = await db.$transaction(async (tx) => {
      if (!(await secondFactor.accept(user, input.otp_code, tx))) throw INVALID_CODE;
      return secondFactor.replaceBackupCodes(tx, user.id);
    });
    return { enabled: true, pending: false, backup_codes_remaining: codes.length, backup_codes: codes };
  };

  const disable: LocalHandler<"mfa.disable"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await enabledUser(userId);
    await db.$transaction(async (tx) => {
      if (!(await secondFactor.accept(user, input.otp_code, tx))) throw INVALID_CODE;
      await tx.user.update({ where: { id: userId }, data: { otpSecret: null, otpEnabledAt: null, otpLastTimeStep: null } });
      await tx.mfaBackupCode.deleteMany({ where: { userId } });
      await recordIdentityEvent(tx, "user.updated", { familyId, user, request, sessionId, changes: { mfa_enabled: { old: true, new: false } } });
    });
    onEventsWritten();
    return statusOf(userId);
  };

  return { "mfa.status": status, "mfa.enrol": enrol, "mfa.confirm": confirm, "mfa.regenerateBackupCodes": regenerateBackupCodes, "mfa.disable": disable };
}
