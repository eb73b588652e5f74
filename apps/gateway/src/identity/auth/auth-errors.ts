import { AppError, type AppErrorOptions, type ErrorCode } from "@hearth/contracts";

/**
 * A refusal of the auth endpoints (login, signup, refresh, SSO link and create-account) as
 * Sure's auth controller answers it: Sure's mobile app shows `error`, so it carries the
 * sentence. The spec's `message` stays, and the catalogue code moves to `code`, so clients of
 * the spec's error body keep working. Everything else (validation, throttling) keeps the usual body.
 */
export class AuthRefusal extends AppError {
  constructor(code: ErrorCode, message: string, options: Omit<AppErrorOptions, "message"> = {}) {
    super(code, { ...options, message, sentenceInError: true });
  }
}

// Answers shared by the password, token and SSO paths, word for word as Sure's clients see them.
export const INVALID_LOGIN = new AuthRefusal("unauthorized", "Invalid email or password");
export const MFA_REQUIRED = new AuthRefusal("unauthorized", "Two-factor authentication required", { mfaRequired: true });
export const INVALID_REFRESH = new AuthRefusal("unauthorized", "Invalid refresh token");
export const REFRESH_TOKEN_REQUIRED = new AuthRefusal("bad_request", "Refresh token is required");
export const DEVICE_REQUIRED = new AuthRefusal("bad_request", "Device information is required");
/** A suspended user's login: Sure's word for an inactive account. */
export const LOGIN_DEACTIVATED = new AuthRefusal("unauthorized", "Account has been deactivated");

/** A suspended user's API key or bearer token, in Sure's base controller's body: `{"error": "unauthorized", "message": ...}`. */
export const ACCOUNT_DEACTIVATED = new AppError("unauthorized", { message: "Account has been deactivated" });
