import { z } from "zod";

/** A TOTP code (6 digits) or a one-time backup code, as the user typed it. */
export const OtpCodeSchema = z.string().trim().min(1, { message: "Otp code can't be blank" }).max(64);

export const MfaStatusSchema = z.object({
  enabled: z.boolean(),
  /** Enrolled but not yet confirmed with a first code. */
  pending: z.boolean(),
  backup_codes_remaining: z.number().int(),
});

/** The seed is shown once, at enrolment, for the authenticator app (or its QR code from the URI). */
export const MfaEnrolmentSchema = z.object({
  secret: z.string(),
  provisioning_uri: z.string(),
});

export const MfaCodeBodySchema = z.object({ otp_code: OtpCodeSchema });

/** Backup codes are shown once, when MFA is confirmed or the codes are regenerated. */
export const MfaBackupCodesSchema = MfaStatusSchema.extend({ backup_codes: z.array(z.string()) });
