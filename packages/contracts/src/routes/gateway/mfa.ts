import { defineResourceRoutes } from "../define-resource-routes";
import { MfaBackupCodesSchema, MfaCodeBodySchema, MfaEnrolmentSchema, MfaStatusSchema } from "../../resources/mfa";
import { BEARER_READ, BEARER_WRITE } from "../../route-access";

export const mfaRoutes = defineResourceRoutes("gateway", "mfa", {
  status: {
    method: "GET",
    path: "/api/v1/auth/mfa",
    summary: "Whether two-factor authentication (TOTP) is enabled for the signed-in user",
    tag: "Auth",
    response: MfaStatusSchema,
    status: 200,
    access: BEARER_READ,
  },
  enrol: {
    method: "POST",
    path: "/api/v1/auth/mfa",
    summary: "Start TOTP enrolment: a new secret for the authenticator app (in force once confirmed)",
    tag: "Auth",
    response: MfaEnrolmentSchema,
    status: 201,
    access: BEARER_WRITE,
  },
  confirm: {
    method: "POST",
    path: "/api/v1/auth/mfa/confirm",
    summary: "Confirm TOTP enrolment with a first code; answers the one-time backup codes",
    tag: "Auth",
    body: MfaCodeBodySchema,
    response: MfaBackupCodesSchema,
    status: 200,
    access: BEARER_WRITE,
  },
  regenerateBackupCodes: {
    method: "POST",
    path: "/api/v1/auth/mfa/backup_codes",
    summary: "Replace the backup codes (a current code is required); the old ones stop working",
    tag: "Auth",
    body: MfaCodeBodySchema,
    response: MfaBackupCodesSchema,
    status: 200,
    access: BEARER_WRITE,
  },
  disable: {
    method: "POST",
    path: "/api/v1/auth/mfa/disable",
    summary: "Turn two-factor authentication off (a current code or backup code is required)",
    tag: "Auth",
    body: MfaCodeBodySchema,
    response: MfaStatusSchema,
    status: 200,
    access: BEARER_WRITE,
  },
});
