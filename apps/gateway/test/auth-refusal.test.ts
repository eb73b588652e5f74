import { describe, expect, it } from "vitest";
import { AppError, ErrorBodySchema } from "@hearth/contracts";
import { AuthRefusal, DEVICE_REQUIRED, INVALID_LOGIN, MFA_REQUIRED } from "../src/identity/auth/auth-errors";

// Sure's auth_controller_test reads the sentence from `error` ("should not login with invalid
// password", "should require MFA when enabled", "should not login without device info"); the
// spec's clients read `message` and the catalogue code, which stay.
describe("the auth endpoints' refusals", () => {
  it("carry Sure's sentence in `error`, the spec's message beside it, and the catalogue code in `code`", () => {
    expect(INVALID_LOGIN.toBody()).toEqual({ error: "Invalid email or password", message: "Invalid email or password", code: "unauthorized" });
    expect(INVALID_LOGIN.status).toBe(401);
    expect(DEVICE_REQUIRED.status).toBe(400);
    expect(DEVICE_REQUIRED.toBody()).toMatchObject({ error: "Device information is required", code: "bad_request" });
  });

  it("keep mfa_required on the MFA answer, and stay error bodies of the spec", () => {
    const body = MFA_REQUIRED.toBody();
    expect(body).toEqual({
      error: "Two-factor authentication required",
      message: "Two-factor authentication required",
      code: "unauthorized",
      mfa_required: true,
    });
    expect(ErrorBodySchema.safeParse(body).success).toBe(true);
    expect(new AuthRefusal("forbidden", "Invalid invite code")).toBeInstanceOf(AppError);
  });

  it("leave every other error's body as it was", () => {
    expect(new AppError("unauthorized", { message: "Account has been deactivated" }).toBody()).toEqual({
      error: "unauthorized",
      message: "Account has been deactivated",
    });
  });
});
