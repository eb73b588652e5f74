import { AppError } from "@hearth/contracts";
import type { SecretBox } from "@hearth/service-kit";
import type { WithIdentityEvents } from "../audit/identity-events";
import type { LoginThrottle } from "../auth/login-throttle";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { MfaRepository } from "./mfa-repository";
import { toBackupCodesResource, toMfaStatusResource } from "./mfa-resource";
import type { SecondFactor } from "./second-factor";
import { totp } from "./totp";

export interface MfaHandlerDeps {
  mfa: MfaRepository;
  box: SecretBox;
  secondFactor: SecondFactor;
  withIdentityEvents: WithIdentityEvents;
  /** Counts each code before it is checked, with the codes of MFA logins: wrong ones lock the user's second factor. */
  throttle: LoginThrottle;
}

const INVALID_CODE = AppError.validation(["Otp code is invalid"]);
const ALREADY_ENABLED = () => new AppError("conflict", { message: "Two-factor authentication is already enabled" });

/** Enrolment, confirmation, backup codes and removal of the signed-in user's TOTP second factor. */
export function createMfaHandlers({ mfa, box, secondFactor, withIdentityEvents, throttle }: MfaHandlerDeps) {
  /** Runs a code check counted against the user's second-factor allowance (429 while locked); a right code clears the count. */
  async function withCountedCode<T>(userId: string, check: () => Promise<T>): Promise<T> {
    await throttle.admitSecondFactor(userId);
    const result = await check();
    await throttle.secondFactorPassed(userId);
    return result;
  }

  async function statusOf(userId: string) {
    const user = await mfa.findUser(userId);
    return toMfaStatusResource(user, await mfa.countUnusedBackupCodes(userId));
  }

  async function enabledUser(userId: string) {
    const user = await mfa.findUser(userId);
    if (!user.otpEnabledAt) throw new AppError("conflict", { message: "Two-factor authentication is not enabled" });
    return user;
  }

  const status: LocalHandler<"mfa.status"> = async ({ actor }) => statusOf(requireActor(actor).userId);

  /** A new seed each time until confirmed; once enabled, it must be disabled first. */
  const enrol: LocalHandler<"mfa.enrol"> = async ({ actor }) => {
    const user = await mfa.findUser(requireActor(actor).userId);
    if (user.otpEnabledAt) throw ALREADY_ENABLED();
    const secret = totp.newSecret();
    await mfa.startEnrolment(user.id, box.seal(secret));
    return { secret, provisioning_uri: totp.provisioningUri(secret, user.email) };
  };

  const confirm: LocalHandler<"mfa.confirm"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await mfa.findUser(userId);
    if (user.otpEnabledAt) throw ALREADY_ENABLED();
    if (!user.otpSecret) throw new AppError("conflict", { message: "Start enrolment first (POST /api/v1/auth/mfa)" });
    const codes = await withCountedCode(userId, () =>
      withIdentityEvents(request, async (tx, record) => {
        if (!(await secondFactor.acceptTotpOnly(user, input.otp_code, tx))) throw INVALID_CODE;
        await mfa.enable(tx, userId, new Date());
        const backupCodes = await secondFactor.replaceBackupCodes(tx, userId);
        record("user.updated", { familyId, user, sessionId, changes: { mfa_enabled: { old: false, new: true } } });
        return backupCodes;
      }),
    );
    return toBackupCodesResource(codes);
  };

  /** The check and the new codes share one transaction; no event is recorded for new backup codes. */
  const regenerateBackupCodes: LocalHandler<"mfa.regenerateBackupCodes"> = async ({ actor, input, request }) => {
    const user = await enabledUser(requireActor(actor).userId);
    const codes = await withCountedCode(user.id, () =>
      withIdentityEvents(request, async (tx) => {
        if (!(await secondFactor.accept(user, input.otp_code, tx))) throw INVALID_CODE;
        return secondFactor.replaceBackupCodes(tx, user.id);
      }),
    );
    return toBackupCodesResource(codes);
  };

  const disable: LocalHandler<"mfa.disable"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await enabledUser(userId);
    await withCountedCode(userId, () =>
      withIdentityEvents(request, async (tx, record) => {
        if (!(await secondFactor.accept(user, input.otp_code, tx))) throw INVALID_CODE;
        await mfa.disable(tx, userId);
        record("user.updated", { familyId, user, sessionId, changes: { mfa_enabled: { old: true, new: false } } });
      }),
    );
    return statusOf(userId);
  };

  return { "mfa.status": status, "mfa.enrol": enrol, "mfa.confirm": confirm, "mfa.regenerateBackupCodes": regenerateBackupCodes, "mfa.disable": disable };
}
