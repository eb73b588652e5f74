import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "@hearth/gateway/gateway";
import { createLogger, listen } from "@hearth/service-kit";
import { startOidcProvider, testPostgresAdminUrl, type TestOidcProvider } from "@hearth/test-kit";
import {
  TEST_PASSWORD,
  apiClient,
  clearOfWindowEdge,
  racingRefreshes,
  followSsoCallback,
  ssoProviderSettings,
  startSystem,
  type ApiClient,
  type ApiResponse,
  type TestSystem,
} from "../src";

// Sure's own Flutter app (we-promise/sure `mobile/`), unchanged, against Hearth: each
// case sends what the app sends, quoting the Dart file and line that sends it.
const GRACE_SECONDS = 3;
const CLIENT_SECRET = "sure-mobile-client-secret-01";
let system: TestSystem;
let api: ApiClient;
let idp: TestOidcProvider;

beforeAll(async () => {
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    // A short refresh grace window, so that the case past it waits seconds, not the default 30.
    gatewayEnv: { SIGNUP_RATE_LIMIT_REQUESTS: "1000", REFRESH_REUSE_GRACE_SECONDS: String(GRACE_SECONDS) },
  });
  api = apiClient(system.url);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: CLIENT_SECRET, redirect_uris: [`${system.url}/api/v1/auth/sso/callback`] }],
    users: [{ sub: "mobile-sub", email: "mobile.sso@example.test", email_verified: true, given_name: "Mo", family_name: "Bile" }],
  });
});
afterAll(async () => {
  await idp?.stop();
  await system?.stop();
});

const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;

/**
 * What `DeviceService.getDeviceInfo` (mobile/lib/services/device_service.dart 20-26) sends from an
 * Android phone: `os_version` is Dart's `Platform.operatingSystemVersion`, the kernel's version
 * string, here a Pixel's (95 characters).
 */
const ANDROID_DEVICE = {
  device_id: "sure_mobile_1764380000000_918273645",
  device_name: "Android Device",
  device_type: "android",
  os_version: "Linux 5.10.198-android13-4-00050-g12f3388846c3-ab11920634 #1 SMP PREEMPT Mon Jun 3 20:53:21 UTC 2024",
  app_version: "0.6.9",
};

describe("an Android phone signs up, signs in and refreshes", () => {
  it("is answered 201 and 200 with the phone's long os_version, at signup, login and refresh", async () => {
    expect(ANDROID_DEVICE.os_version.length).toBeGreaterThan(50);
    const email = uniqueEmail("android");
    // auth_service.dart 193-203: POST /api/v1/auth/signup {user: {...}, device: deviceInfo}
    const signup = await api.post("/api/v1/auth/signup", {
      user: { email, password: TEST_PASSWORD, first_name: "Ana", last_name: "Droid" },
      device: ANDROID_DEVICE,
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    // auth_service.dart 94-100: POST /api/v1/auth/login {email, password, device: deviceInfo}
    const login = await api.post("/api/v1/auth/login", { email, password: TEST_PASSWORD, device: ANDROID_DEVICE });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    // auth_service.dart 280-289: POST /api/v1/auth/refresh {refresh_token, device: deviceInfo}
    const refresh = await api.post("/api/v1/auth/refresh", { refresh_token: login.body.refresh_token, device: ANDROID_DEVICE });
    expect(refresh.status, JSON.stringify(refresh.body)).toBe(200);
  });

  it("keeps the first 255 characters of a longer name or version, and still refuses a device id over 255", async () => {
    const email = uniqueEmail("long-device");
    const longName = `${"Pixel 9 Pro Fold ".repeat(30)}`.trim();
    const signup = await api.post("/api/v1/auth/signup", {
      user: { email, password: TEST_PASSWORD },
      device: { ...ANDROID_DEVICE, device_name: longName, app_version: "9".repeat(400) },
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const user = await system.db.gateway.user.findUniqueOrThrow({ where: { email }, include: { sessions: true } });
    expect(user.sessions.map((session) => session.deviceName)).toEqual([longName.slice(0, 255)]);

    const tooLongId = await api.post("/api/v1/auth/login", { email, password: TEST_PASSWORD, device: { ...ANDROID_DEVICE, device_id: "x".repeat(256) } });
    expect(tooLongId.status).toBe(400);
    expect(tooLongId.body).toMatchObject({ error: "Device information is required" });
    const absurd = await api.post("/api/v1/auth/login", { email, password: TEST_PASSWORD, device: { ...ANDROID_DEVICE, os_version: "y".repeat(1_001) } });
    expect(absurd.status).toBe(400);
  });

  it("starts SSO with the phone's long os_version in the query", async () => {
    const settings = new URLSearchParams({ ...ANDROID_DEVICE, redirect_uri: "sureapp://oauth/callback" });
    const start = await api.get(`/api/v1/auth/sso/00000000-0000-4000-8000-000000000000/authorize?${settings.toString()}`);
    // No such provider: the device passed validation and the lookup answered.
    expect(start.status, JSON.stringify(start.body)).toBe(404);
  });
});

/**
 * The sentence the app shows for a refusal: `AuthService._responseErrorMessage`
 * (mobile/lib/services/auth_service.dart 18-56) reads `error`, then `errors`, joined by ", ".
 */
function shownByTheApp(body: unknown): string | null {
  const fromValue = (value: unknown): string | null => {
    if (typeof value === "string") return value.trim() || null;
    if (Array.isArray(value))
      return (
        value
          .map(fromValue)
          .filter((part): part is string => !!part)
          .join(", ") || null
      );
    if (value && typeof value === "object") return fromValue(Object.values(value));
    return null;
  };
  if (!body || typeof body !== "object") return null;
  const { error, errors } = body as { error?: unknown; errors?: unknown };
  return fromValue(error) ?? fromValue(errors);
}

describe("signup and login refusals read as Sure's", () => {
  // Sure: auth_controller_test.rb "should not signup with duplicate email"
  it("answers an email already taken 422 with the sentence the app shows", async () => {
    const email = uniqueEmail("taken");
    const first = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: ANDROID_DEVICE });
    expect(first.status).toBe(201);
    const again = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: { ...ANDROID_DEVICE, device_id: "other" } });
    expect(again.status).toBe(422);
    expect(shownByTheApp(again.body)).toBe("Email has already been taken");
    expect(again.body).toMatchObject({ errors: ["Email has already been taken"], code: "validation_failed" });
  });

  // Sure: "should not signup with invalid password" (errors include "Password must be at least 8 characters")
  it("answers a weak password 422 with Sure's sentences, each in errors", async () => {
    const weak = await api.post("/api/v1/auth/signup", { user: { email: uniqueEmail("weak"), password: "weak" }, device: ANDROID_DEVICE });
    expect(weak.status).toBe(422);
    expect(weak.body.errors).toEqual([
      "Password must be at least 8 characters",
      "Password must include both uppercase and lowercase letters",
      "Password must include at least one number",
      "Password must include at least one special character",
    ]);
    expect(shownByTheApp(weak.body)).toBe((weak.body.errors as string[]).join(", "));
    const blank = await api.post("/api/v1/auth/signup", { user: { email: uniqueEmail("blank"), password: "" }, device: ANDROID_DEVICE });
    expect(blank.body).toMatchObject({ error: "Password can't be blank", errors: ["Password can't be blank"] });
    const noEmail = await api.post("/api/v1/auth/signup", { user: { password: TEST_PASSWORD }, device: ANDROID_DEVICE });
    expect(noEmail.body).toMatchObject({ error: "Email can't be blank" });
    const badEmail = await api.post("/api/v1/auth/signup", { user: { email: "not-an-email", password: TEST_PASSWORD }, device: ANDROID_DEVICE });
    expect(badEmail.status).toBe(422);
    expect(shownByTheApp(badEmail.body)).toBe("Email is invalid");
  });

  // Sure's login looks the email up as typed: "should not login with non-existent email"
  it("answers a mistyped email or a blank password at login 401 'Invalid email or password'", async () => {
    const typo = await api.post("/api/v1/auth/login", { email: "someone@@example", password: TEST_PASSWORD, device: ANDROID_DEVICE });
    expect(typo.status).toBe(401);
    expect(shownByTheApp(typo.body)).toBe("Invalid email or password");
    const blank = await api.post("/api/v1/auth/login", { email: uniqueEmail("nobody"), password: "", device: ANDROID_DEVICE });
    expect(blank.status).toBe(401);
    expect(shownByTheApp(blank.body)).toBe("Invalid email or password");
  });
});

describe("the app's Test connection", () => {
  it("finds a page at /sessions/new", async () => {
    // backend_config_screen.dart 94-104: GET {url}/sessions/new with HTML headers; 2xx or 3xx is a Sure server.
    const res = await fetch(`${system.url}/sessions/new`, { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("POST /api/v1/auth/login");
  });
});

/** Signs ANDROID_DEVICE up as a new user: its first refresh token. */
async function androidSignUp(label: string): Promise<{ email: string; refreshToken: string; userId: string }> {
  const email = uniqueEmail(label);
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: ANDROID_DEVICE });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  return { email, refreshToken: signup.body.refresh_token as string, userId: signup.body.user.id as string };
}

// auth_service.dart 277-289: the app refreshes without a lock, so two screens may send one token at once.
const refreshWith = (refreshToken: string, device: object = ANDROID_DEVICE) => api.post("/api/v1/auth/refresh", { refresh_token: refreshToken, device });
const pairOf = (res: ApiResponse) => ({ access: res.body.access_token as string, refresh: res.body.refresh_token as string });
const sessionOf = (userId: string) => system.db.gateway.session.findFirstOrThrow({ where: { userId } });

describe("two screens refreshing at once", () => {
  it("answers 5 parallel refreshes of one token with one pair, which then works", async () => {
    const user = await androidSignUp("grace-parallel");
    const answers = await Promise.all(Array.from({ length: 5 }, () => refreshWith(user.refreshToken)));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    const pairs = answers.map(pairOf);
    expect(new Set(pairs.map((pair) => JSON.stringify(pair))).size).toBe(1);
    const [pair] = pairs;
    expect((await api.get("/api/v1/tags", { token: pair!.access })).status).toBe(200);
    expect((await refreshWith(pair!.refresh)).status).toBe(200);
    expect((await sessionOf(user.userId)).revokedAt).toBeNull();
  });

  it("answers the losers of a certain race (all five waiting on the token's row) with the winner's pair", async () => {
    const user = await androidSignUp("grace-race");
    // Certain: all five have read the token as live and wait to spend it; then one spends it and four lose.
    const answers = await racingRefreshes(system.config.DATABASE_URL, user.refreshToken, 5, () => refreshWith(user.refreshToken));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((res) => JSON.stringify(pairOf(res)))).size).toBe(1);
    expect((await sessionOf(user.userId)).revokedAt).toBeNull();
    const events = await system.db.gateway.outboxEvent.findMany({ where: { topic: "hearth.audit.auth" } });
    const refreshed = events.filter((row) => JSON.stringify(row.payload).includes("auth.token.refreshed") && JSON.stringify(row.payload).includes(user.userId));
    expect(refreshed, "one rotation, one auth.token.refreshed").toHaveLength(1);
  });

  it("still ends the session when the spent token comes back past the window", async () => {
    const user = await androidSignUp("grace-late");
    const rotated = await refreshWith(user.refreshToken);
    expect(rotated.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, GRACE_SECONDS * 1000 + 500));
    expect((await refreshWith(user.refreshToken)).status).toBe(401);
    expect((await sessionOf(user.userId)).revokedReason).toBe("refresh_token_reuse");
    expect((await refreshWith(pairOf(rotated).refresh)).status).toBe(401);
  });

  it("still ends the session when the spent token comes back from another device, or after its pair was used", async () => {
    const other = await androidSignUp("grace-device");
    expect((await refreshWith(other.refreshToken)).status).toBe(200);
    expect((await refreshWith(other.refreshToken, { ...ANDROID_DEVICE, device_id: "someone-else" })).status).toBe(401);
    expect((await sessionOf(other.userId)).revokedReason).toBe("refresh_token_reuse");

    const used = await androidSignUp("grace-used");
    const second = await refreshWith(used.refreshToken);
    expect((await refreshWith(pairOf(second).refresh)).status).toBe(200);
    expect((await refreshWith(used.refreshToken)).status).toBe(401);
    expect((await sessionOf(used.userId)).revokedReason).toBe("refresh_token_reuse");
  });

  it("still ends the session when the pair a spent token was rotated into is not the one derived from it", async () => {
    // As a pair rotated before the window existed, or under another master key, is stored.
    const user = await androidSignUp("grace-underived");
    const rotated = await refreshWith(user.refreshToken);
    expect(rotated.status).toBe(200);
    const spent = await system.db.gateway.refreshToken.findFirstOrThrow({ where: { userId: user.userId, replacedById: { not: null } } });
    await system.db.gateway.refreshToken.update({ where: { id: spent.replacedById! }, data: { tokenHash: "0".repeat(64) } });
    expect((await refreshWith(user.refreshToken)).status).toBe(401);
    expect((await sessionOf(user.userId)).revokedReason).toBe("refresh_token_reuse");
  });
});

describe("a day of app use stays within the sessions' budget", () => {
  it("counts bearer tokens against a budget apart from, and far above, the API keys' 1,000 an hour", async () => {
    const user = await androidSignUp("budget");
    const login = await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: ANDROID_DEVICE });
    const token = login.body.access_token as string;
    // accounts_service.dart: the app's pull-to-refresh starts with GET /api/v1/accounts.
    const asApp = await api.get("/api/v1/accounts", { token });
    expect(asApp.status).toBe(200);
    expect(Number(asApp.headers.get("x-ratelimit-limit"))).toBe(60_000);
    const key = await api.post("/api/v1/api_keys", { api_key: { name: "script", scopes: ["read"] } }, { token });
    const asKey = await api.get("/api/v1/accounts", { apiKey: key.body.key as string });
    expect(Number(asKey.headers.get("x-ratelimit-limit"))).toBe(1_000);
  });
});

describe("Sign in with Google from the app: mobile SSO at Sure's path", () => {
  /** What `AuthService.buildSsoUrl` opens in the browser (auth_service.dart 403-416), at `baseUrl`. */
  const mobileStart = (baseUrl: string, provider: string, device: Record<string, string> = ANDROID_DEVICE) =>
    fetch(`${baseUrl}/auth/mobile/${provider}?${new URLSearchParams(device).toString()}`, { redirect: "manual" });
  const appCallback = (res: Response) => {
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe("sureapp://oauth/callback");
    return location.searchParams;
  };

  /** A new family whose admin adds a provider of this name at the test OpenID provider: its id. */
  const familyWithProvider = async (label: string, name: string): Promise<string> => {
    const admin = await androidSignUp(label);
    const login = await api.post("/api/v1/auth/login", { email: admin.email, password: TEST_PASSWORD, device: ANDROID_DEVICE });
    const created = await api.post(
      "/api/v1/sso_providers",
      { sso_provider: ssoProviderSettings(idp, CLIENT_SECRET, name) },
      { token: login.body.access_token as string },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };

  /**
   * A gateway instance beside the test's, on its database, whose operator named Sure's mobile
   * providers (SSO_MOBILE_PROVIDERS). The provider sends the browser back to the test's gateway
   * (PUBLIC_URL), whose callback address the test OpenID provider knows.
   */
  async function operatorGateway(mobileProviders: Record<string, string>, settings: Partial<typeof system.config> = {}) {
    const gateway = await createGateway({
      config: { ...system.config, ...settings, SSO_MOBILE_PROVIDERS: mobileProviders, PUBLIC_URL: system.url },
      db: system.db.gateway,
      log: createLogger("gateway-mobile-sso", "silent"),
    });
    await gateway.start();
    const server = await listen(createServer(gateway.app), 0);
    return { url: server.url, stop: async () => (await gateway.stop(), await server.close()) };
  }

  it("sends the app back with error and message when the provider is not the operator's or the device is missing", async () => {
    // A family's admin naming a provider google_oauth2 does not make it Sure's mobile provider: names are each family's own.
    await familyWithProvider("sso-squatter", "google_oauth2");
    expect(Object.fromEntries(appCallback(await mobileStart(system.url, "google_oauth2")))).toEqual({
      error: "invalid_provider",
      message: "SSO provider not configured",
    });
    const corporate = await familyWithProvider("sso-device-admin", "corporate_oidc");
    const gateway = await operatorGateway({ corporate_oidc: corporate });
    try {
      expect(appCallback(await mobileStart(gateway.url, "google_oauth2")).get("error")).toBe("invalid_provider");
      const { device_type: _left, ...noType } = ANDROID_DEVICE;
      expect(Object.fromEntries(appCallback(await mobileStart(gateway.url, "corporate_oidc", noType)))).toEqual({
        error: "missing_device_info",
        message: "Device information is required",
      });
    } finally {
      await gateway.stop();
    }
  });

  it("sends the app back with rate_limit_exceeded once the address has used its sign-in starts", async () => {
    const corporate = await familyWithProvider("sso-throttled-admin", "corporate_oidc");
    // One start a day from an address (a window of its own, apart from the other tests' counts).
    const gateway = await operatorGateway(
      { corporate_oidc: corporate },
      { SSO_AUTHORIZE_RATE_LIMIT_REQUESTS: 1, SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS: 86_400 },
    );
    try {
      await clearOfWindowEdge(86_400, 20);
      await mobileStart(gateway.url, "corporate_oidc");
      const refused = Object.fromEntries(appCallback(await mobileStart(gateway.url, "corporate_oidc")));
      expect(refused.error).toBe("rate_limit_exceeded");
      expect(refused.message).toMatch(/^Too many SSO sign-ins from this address\. Try again in \d+ seconds\.$/);
    } finally {
      await gateway.stop();
    }
  });

  it("signs a new person in with the app's Google button: the provider, back to the app, then sso_create_account", async () => {
    // login_screen.dart 388: authProvider.startSsoLogin('google_oauth2')
    const google = await familyWithProvider("sso-admin", "google_oauth2");
    const gateway = await operatorGateway({ google_oauth2: google });
    let back: URL;
    try {
      const start = await mobileStart(gateway.url, "google_oauth2");
      expect(start.status).toBe(302);
      const toProvider = start.headers.get("location") ?? "";
      expect(toProvider.startsWith(idp.issuer)).toBe(true);
      back = await followSsoCallback(await idp.authorize(toProvider, "mobile-sub"));
    } finally {
      await gateway.stop();
    }
    expect(`${back.protocol}//${back.host}${back.pathname}`).toBe("sureapp://oauth/callback");
    // auth_service.dart 424-434: account_not_linked with a linking code, then the onboarding's create-account.
    expect(Object.fromEntries([...back.searchParams].filter(([key]) => key !== "linking_code"))).toEqual({
      status: "account_not_linked",
      email: "mobile.sso@example.test",
      first_name: "Mo",
      last_name: "Bile",
      allow_account_creation: "true",
      has_pending_invitation: "false",
    });
    const linkingCode = back.searchParams.get("linking_code");
    expect(linkingCode).toBeTruthy();
    const account = await api.post("/api/v1/auth/sso_create_account", { linking_code: linkingCode, first_name: "Mo", last_name: "Bile" });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    const session = await system.db.gateway.session.findFirstOrThrow({ where: { userId: account.body.user.id as string } });
    expect({ deviceId: session.deviceId, deviceType: session.deviceType }).toEqual({ deviceId: ANDROID_DEVICE.device_id, deviceType: "android" });
  });
});
