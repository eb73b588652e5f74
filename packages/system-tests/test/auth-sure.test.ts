import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, testPostgresAdminUrl, type TestOidcProvider } from "@hearth/test-kit";
import {
  DEVICE,
  TEST_PASSWORD,
  answersWithinOneSecond,
  apiClient,
  changeCredentialsDirectly,
  logIn,
  signUpUser,
  totpCode,
  ssoProviderSettings,
  ssoSignIn,
  startSystem,
  type ApiClient,
  type ApiResponse,
  type TestSystem,
  type TestUser,
} from "../src";

// Hearth's auth endpoints answered as Sure's Api::V1::AuthController, UsersController#destroy
// and BaseController answer them (Sure compatibility), over real HTTP. Each case names
// the Sure test it mirrors (test/controllers/api/v1/*_controller_test.rb).
const CLIENT_SECRET = "auth-sure-client-secret-01";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let system: TestSystem;
let api: ApiClient;
let idp: TestOidcProvider;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { SIGNUP_RATE_LIMIT_REQUESTS: "1000" } });
  api = apiClient(system.url);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: CLIENT_SECRET, redirect_uris: [`${system.url}/api/v1/auth/sso/callback`] }],
    users: [{ sub: "linker-sub", email: "linker.sso@example.test", email_verified: true }],
  });
});
afterAll(async () => {
  await idp?.stop();
  await system?.stop();
});

/** Another device of the same person: its sessions are its own. */
const deviceNamed = (deviceId: string) => ({ ...DEVICE, device_id: deviceId });
const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;

/** Sure's sentence in `error`, with the spec's message and catalogue code beside it. */
function expectRefusal(res: ApiResponse, status: number, sentence: string, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ error: sentence, message: sentence, code });
}

async function enableMfa(user: TestUser): Promise<string> {
  const enrol = await api.post("/api/v1/auth/mfa", undefined, { token: user.accessToken });
  expect(enrol.status).toBe(201);
  const code = await totpCode(enrol.body.secret, -1);
  expect((await api.post("/api/v1/auth/mfa/confirm", { otp_code: code }, { token: user.accessToken })).status).toBe(200);
  return enrol.body.secret as string;
}

describe("login", () => {
  // "should not login with invalid password", "should not login with non-existent email"
  it("answers a wrong password and an unknown email 'Invalid email or password' in `error`", async () => {
    const user = await signUpUser(api, "sure-wrongpw");
    expectRefusal(await logIn(api, user.email, "Wrong-password-1"), 401, "Invalid email or password", "unauthorized");
    expectRefusal(await logIn(api, uniqueEmail("nobody")), 401, "Invalid email or password", "unauthorized");
  });

  // "should require MFA when enabled"
  it("asks an MFA user for the code with 'Two-factor authentication required' and mfa_required", async () => {
    const user = await signUpUser(api, "sure-mfa");
    await enableMfa(user);
    const res = await logIn(api, user.email);
    expectRefusal(res, 401, "Two-factor authentication required", "unauthorized");
    expect(res.body.mfa_required).toBe(true);
  });

  // "should not login without device info"
  it("answers a missing device 400 'Device information is required', once the credentials are checked, and opens no session", async () => {
    const user = await signUpUser(api, "sure-nodevice");
    const missing = await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD });
    expectRefusal(missing, 400, "Device information is required", "bad_request");
    // Sure checks the password first: a wrong one without a device is still the 401.
    expectRefusal(await api.post("/api/v1/auth/login", { email: user.email, password: "Wrong-password-1" }), 401, "Invalid email or password", "unauthorized");
    expect(await system.db.gateway.session.count({ where: { userId: user.id } })).toBe(1); // the sign-up's
    // The right password without a device is no guess: only the wrong one above is counted.
    const throttle = await system.db.gateway.loginThrottle.findUnique({ where: { key: `email:${user.email}` } });
    expect(throttle?.failures).toBe(1);
  });

  // MobileDevice: validates :device_type, inclusion: { in: %w[ios android web] }
  it("takes only Sure's device types", async () => {
    const user = await signUpUser(api, "sure-devtype");
    for (const device_type of ["windows", "", "IOS"]) {
      const res = await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: { ...DEVICE, device_type } });
      expectRefusal(res, 400, "Device information is required", "bad_request");
    }
    for (const device_type of ["ios", "android", "web"]) {
      const res = await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: { ...deviceNamed(device_type), device_type } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  // "should revoke existing tokens for same device on login"
  it("ends the earlier sessions of the device it signs in on, and only those", async () => {
    const user = await signUpUser(api, "sure-relogin"); // signed up on DEVICE
    const again = await logIn(api, user.email, TEST_PASSWORD);
    expect(again.status).toBe(200); // DEVICE again: the sign-up's session ends
    const phone = await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: deviceNamed("other-phone") });
    expect(phone.status).toBe(200);

    expect((await api.get("/api/v1/users/me", { token: user.accessToken })).status).toBe(401);
    const refresh = await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } });
    expectRefusal(refresh, 401, "Invalid refresh token", "unauthorized");
    expect((await api.get("/api/v1/users/me", { token: again.body.access_token })).status).toBe(200);
    expect((await api.get("/api/v1/users/me", { token: phone.body.access_token })).status).toBe(200);
    const ended = await system.db.gateway.session.findMany({ where: { userId: user.id, revokedAt: { not: null } } });
    expect(ended.map((session) => [session.deviceId, session.revokedReason])).toEqual([[DEVICE.device_id, "device_relogin"]]);
    // API keys are not sessions: they keep working.
    expect((await api.get("/api/v1/users/me", { apiKey: user.readKey })).status).toBe(200);
  });

  // A review found 15 of 150 such pairs answered 500 (a deadlock between the sign-in's user lock and the refresh's).
  it("answers a sign-in racing a refresh on the same device 200 or 401, never 500", async () => {
    const user = await signUpUser(api, "sure-relogin-race");
    let refreshToken = user.refreshToken;
    const statuses: number[] = [];
    for (let round = 0; round < 150; round++) {
      // The refresh starts 0-56 ms after the sign-in, so over the rounds it meets each step of it.
      const [refresh, login] = await Promise.all([
        sleep((round % 15) * 4).then(() => api.post("/api/v1/auth/refresh", { refresh_token: refreshToken, device: { device_id: DEVICE.device_id } })),
        logIn(api, user.email),
      ]);
      statuses.push(refresh.status, login.status);
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      refreshToken = login.body.refresh_token;
    }
    expect(statuses.filter((status) => status !== 200 && status !== 401)).toEqual([]);
    // Whatever the order, the device is left with one live session: the last sign-in's (or its refresh).
    expect(await system.db.gateway.session.count({ where: { userId: user.id, deviceId: DEVICE.device_id, revokedAt: null } })).toBe(1);
  });
});

describe("signup", () => {
  // "should not signup without device info"
  it("answers a missing device 400 and creates nobody", async () => {
    const email = uniqueEmail("sure-signup-nodevice");
    expectRefusal(await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD } }), 400, "Device information is required", "bad_request");
    expect(await system.db.gateway.user.findUnique({ where: { email } })).toBeNull();
  });

  // "should reject signup with invalid device_type before committing any state"
  it("answers a device type Sure does not know 400 and creates nobody", async () => {
    const email = uniqueEmail("sure-signup-windows");
    const res = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: { ...DEVICE, device_type: "windows" } });
    expectRefusal(res, 400, "Device information is required", "bad_request");
    expect(await system.db.gateway.user.findUnique({ where: { email } })).toBeNull();
  });

  // "should reject invalid invite code"
  it("answers a bad invite code 403 'Invalid invite code'", async () => {
    const res = await api.post("/api/v1/auth/signup", {
      user: { email: uniqueEmail("sure-invite"), password: TEST_PASSWORD },
      device: DEVICE,
      invite_code: "invalid_code",
    });
    expectRefusal(res, 403, "Invalid invite code", "forbidden");
  });
});

describe("refresh", () => {
  // "should not refresh with invalid refresh token", "should not refresh without refresh token"
  it("answers an unknown token 401 'Invalid refresh token' and none 400 'Refresh token is required'", async () => {
    expectRefusal(
      await api.post("/api/v1/auth/refresh", { refresh_token: "invalid_token", device: { device_id: DEVICE.device_id } }),
      401,
      "Invalid refresh token",
      "unauthorized",
    );
    expectRefusal(await api.post("/api/v1/auth/refresh", { device: { device_id: DEVICE.device_id } }), 400, "Refresh token is required", "bad_request");
  });

  it("answers a live token without a device 400 'Device information is required' (its session is bound to one)", async () => {
    const user = await signUpUser(api, "sure-refresh-nodevice");
    expectRefusal(await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken }), 400, "Device information is required", "bad_request");
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } })).status).toBe(200);
  });

  // "should not refresh a token after its user is deactivated"
  it("answers a deactivated (suspended) user's refresh 'Invalid refresh token'", async () => {
    const user = await signUpUser(api, "sure-refresh-suspended");
    await changeCredentialsDirectly(system.db.gateway, user.id, (tx) => tx.user.update({ where: { id: user.id }, data: { suspendedAt: new Date() } }));
    expectRefusal(
      await api.post("/api/v1/auth/refresh", { refresh_token: user.refreshToken, device: { device_id: DEVICE.device_id } }),
      401,
      "Invalid refresh token",
      "unauthorized",
    );
  });
});

describe("credentials (Sure's BaseController)", () => {
  // base_controller_test "should prioritize OAuth over API key when both are provided"
  it("lets a valid bearer token win over a bad X-Api-Key; a bad bearer token is 401 whatever the key", async () => {
    const user = await signUpUser(api, "sure-both");
    const both = await api.get("/api/v1/users/me", { token: user.accessToken, apiKey: "hk_not-a-real-key" });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.user.id).toBe(user.id);
    // A bearer token is OAuth to Sure's usage endpoint: it answers the OAuth notice, not the key's usage.
    expect((await api.get("/api/v1/usage", { token: user.accessToken, apiKey: user.readKey })).body).toMatchObject({ authentication_method: "oauth" });
    const badBearer = await api.get("/api/v1/users/me", { token: "not.a.jwt", apiKey: user.readKey });
    expect(badBearer.status).toBe(401);
    expect(badBearer.body).toMatchObject({ error: "unauthorized" });
  });

  // users_controller_test "rejects deactivated user with 401"
  it("answers a deactivated (suspended) user's API key and bearer token 401 'Account has been deactivated'", async () => {
    const user = await signUpUser(api, "sure-deactivated");
    await changeCredentialsDirectly(system.db.gateway, user.id, (tx) => tx.user.update({ where: { id: user.id }, data: { suspendedAt: new Date() } }));
    for (const credential of [{ apiKey: user.writeKey }, { token: user.accessToken }]) {
      await answersWithinOneSecond(() => api.get("/api/v1/users/me", credential), 401);
      const res = await api.get("/api/v1/users/me", credential);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "unauthorized", message: "Account has been deactivated" });
    }
    expectRefusal(await logIn(api, user.email), 401, "Account has been deactivated", "unauthorized");
  });
});

describe("DELETE /api/v1/users/me (Sure's UsersController#destroy)", () => {
  // "destroy deactivates user and returns 200"
  it("works with a read_write API key and answers 200 'Account has been deleted'", async () => {
    const user = await signUpUser(api, "sure-destroy-key");
    const res = await api.delete("/api/v1/users/me", { apiKey: user.writeKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: "Account has been deleted" });
    expect(await system.db.gateway.user.findUnique({ where: { id: user.id } })).toBeNull();
    expect((await logIn(api, user.email)).status).toBe(401);
  });

  it("answers a bearer token the same", async () => {
    const user = await signUpUser(api, "sure-destroy-token");
    const res = await api.delete("/api/v1/users/me", { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Account has been deleted" });
  });

  // "destroy requires authentication", "destroy requires write scope"
  it("needs a credential with write scope", async () => {
    const user = await signUpUser(api, "sure-destroy-read");
    expect((await api.delete("/api/v1/users/me")).status).toBe(401);
    const readOnly = await api.delete("/api/v1/users/me", { apiKey: user.readKey });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body).toMatchObject({ error: "insufficient_scope" });
    expect(await system.db.gateway.user.findUnique({ where: { id: user.id } })).not.toBeNull();
  });
});

describe("SSO linking codes", () => {
  // "should reject SSO link without linking code", "should reject SSO link with expired linking code",
  // and the same two of sso_create_account
  it("answers a missing code 400 'Linking code is required' and an unknown one 401 'Linking code is invalid or expired'", async () => {
    const credentials = { email: uniqueEmail("sure-link"), password: TEST_PASSWORD };
    expectRefusal(await api.post("/api/v1/auth/sso_link", credentials), 400, "Linking code is required", "bad_request");
    expectRefusal(
      await api.post("/api/v1/auth/sso_link", { ...credentials, linking_code: "expired-code" }),
      401,
      "Linking code is invalid or expired",
      "unauthorized",
    );
    expectRefusal(await api.post("/api/v1/auth/sso_create_account", { first_name: "Test" }), 400, "Linking code is required", "bad_request");
    expectRefusal(
      await api.post("/api/v1/auth/sso_create_account", { linking_code: "expired-code" }),
      401,
      "Linking code is invalid or expired",
      "unauthorized",
    );
  });

  // "should reject SSO create account when not allowed", "should reject SSO link when user has MFA enabled"
  it("answers a closed provider's create-account 403 and an MFA user's link 401 with mfa_required, keeping the code", async () => {
    const admin = await signUpUser(api, "sure-sso-admin");
    const settings = ssoProviderSettings(idp, CLIENT_SECRET, "sure-closed", { allow_account_creation: false });
    const provider = await api.post("/api/v1/sso_providers", { sso_provider: settings }, { token: admin.accessToken });
    expect(provider.status, JSON.stringify(provider.body)).toBe(201);
    const back = await ssoSignIn(api, idp, provider.body.id, "linker-sub");
    const linkingCode = back.searchParams.get("linking_code");
    expect(linkingCode).toBeTruthy();

    const refused = await api.post("/api/v1/auth/sso_create_account", { linking_code: linkingCode });
    expectRefusal(refused, 403, "SSO account creation is disabled. Please contact an administrator.", "forbidden");

    await enableMfa(admin);
    const mfa = await api.post("/api/v1/auth/sso_link", { linking_code: linkingCode, email: admin.email, password: TEST_PASSWORD });
    expectRefusal(mfa, 401, "MFA users should sign in with email and password", "unauthorized");
    expect(mfa.body.mfa_required).toBe(true);
    // Neither refusal spent the code.
    expectRefusal(
      await api.post("/api/v1/auth/sso_link", { linking_code: linkingCode, email: admin.email, password: "Wrong-password-1" }),
      401,
      "Invalid email or password",
      "unauthorized",
    );
  });
});
