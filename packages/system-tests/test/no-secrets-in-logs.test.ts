import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  DEVICE,
  SECOND_DEVICE,
  apiClient,
  eventually,
  pendingOutboxCount,
  startSystem,
  totpCode,
  type ApiClient,
  type ApiResponse,
  type AuditEntry,
  type RequestOptions,
  type TestSystem,
} from "../src";

// Issue requirement: no secret, token, password or OTP ever in logs, audit entries or error
// bodies. Every part of the system logs through one pino logger at its most verbose level
// into `logLines`; every answer of the gateway is kept in `exchanges`.

const logLines: string[] = [];
const consoleLines: string[] = [];
const exchanges: { method: string; path: string; status: number; requestId: string | null; headers: Record<string, string>; body: unknown }[] = [];

let system: TestSystem;
let api: ApiClient;

/** The gateway's client, recording every exchange (status, headers, body). */
function recording(client: ApiClient): ApiClient {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const res = await client.request<T>(method, path, options);
    exchanges.push({ method, path, status: res.status, requestId: res.headers.get("x-request-id"), headers: Object.fromEntries(res.headers), body: res.body });
    return res;
  }
  return {
    request,
    get: (path, options) => request("GET", path, options),
    post: (path, body, options) => request("POST", path, { ...options, body }),
    patch: (path, body, options) => request("PATCH", path, { ...options, body }),
    put: (path, body, options) => request("PUT", path, { ...options, body }),
    delete: (path, options) => request("DELETE", path, options),
  };
}

beforeAll(async () => {
  // Anything that bypasses the logger and prints is captured too.
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void consoleLines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: 10 }))).join(" ")),
    );
  }
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    logLevel: "trace",
    logDestination: { write: (line: string) => void logLines.push(line) },
    // No refresh grace window: the spent token presented again below is a reuse at once.
    gatewayEnv: { REFRESH_REUSE_GRACE_SECONDS: "0" },
  });
  api = recording(apiClient(system.url));
});
afterAll(async () => {
  await system?.stop();
  vi.restoreAllMocks();
});

interface Secret {
  what: string;
  value: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Shapes of secrets this run never saw in plain (the internal tokens the gateway signs for each
 * service call, other sessions' tokens), and of what must not be logged either (password hashes).
 */
const SECRET_SHAPES: Secret[] = [
  { what: "a JWT (access or internal token)", value: String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{20,}` },
  { what: "a refresh token", value: String.raw`hrt_[A-Za-z0-9_-]{20,}` },
  { what: "an API key", value: String.raw`hk_[A-Za-z0-9_-]{20,}` },
  { what: "a TOTP provisioning URI", value: String.raw`otpauth://` },
  { what: "an argon2 password hash", value: String.raw`\$argon2(id|i|d)\$` },
];

/**
 * Where any secret occurs in any text. Short secrets (6-digit OTP codes) must stand alone, not
 * be part of a longer run of letters and digits (a UUID, a port, a pid), so the check does not
 * fail by chance; long ones count anywhere. `shapes` are regular expressions.
 */
function findLeaks(texts: { where: string; text: string }[], secrets: Secret[], shapes: Secret[] = []): string[] {
  const matchers = [
    ...secrets.map(({ what, value }) => ({
      what,
      test:
        value.length < 12
          ? (text: string) => new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![A-Za-z0-9])`).test(text)
          : (text: string) => text.includes(value),
    })),
    ...shapes.map(({ what, value }) => ({ what, test: (text: string) => new RegExp(value).test(text) })),
  ];
  const leaks: string[] = [];
  for (const { what, test } of matchers) {
    for (const { where, text } of texts) if (test(text)) leaks.push(`${what} in ${where}: ${text.slice(0, 500)}`);
  }
  return leaks;
}

/** Every audit entry of the admin's family, all pages. */
async function allAuditEntries(token: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/api/v1/audit-logs?limit=100&offset=${offset}`, { token });
    expect(page.status).toBe(200);
    entries.push(...(page.body as AuditEntry[]));
    if (page.body.length < 100) return entries;
  }
}

describe("no secret reaches the logs, the audit log or an error body", () => {
  it("the scan finds a secret where there is one", () => {
    const secrets = [
      { what: "token", value: "hrt_abcdefghijklmnopqrstuvwxyz" },
      { what: "otp", value: "123456" },
    ];
    expect(findLeaks([{ where: "a", text: '{"refresh":"hrt_abcdefghijklmnopqrstuvwxyz"}' }], secrets)).toHaveLength(1);
    expect(findLeaks([{ where: "b", text: '{"otp_code":"123456"}' }], secrets)).toHaveLength(1);
    expect(findLeaks([{ where: "c", text: '{"id":"1f0e9c2a-4b5d-4123456a-9f00-000000000000","pid":1234567}' }], secrets)).toEqual([]);
    const internalToken = "eyJhbGciOiJIUzI1NiJ9.eyJjYWxsZXIiOiJnYXRld2F5In0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg";
    expect(findLeaks([{ where: "d", text: `{"headers":{"x-hearth-internal":"${internalToken}"}}` }], [], SECRET_SHAPES)).toHaveLength(1);
    expect(findLeaks([{ where: "e", text: '{"display_key":"hk_AbCd…wXyZ","password":"[redacted]"}' }], [], SECRET_SHAPES)).toEqual([]);
  });

  it("through signup, logins, refresh and its reuse, API keys, bad credentials, MFA with a code and a backup code, logout", async () => {
    const secrets: Secret[] = [];
    const secret = <T extends string | undefined>(what: string, value: T): T => {
      if (typeof value !== "string" || value.length < 6) throw new Error(`${what}: no usable value (${String(value)})`);
      secrets.push({ what, value });
      // The signature of a JWT is the part that must never be seen.
      const signature = value.split(".")[2];
      if (signature && signature.length >= 20) secrets.push({ what: `${what} (signature)`, value: signature });
      return value;
    };
    const email = `secrets-${randomBytes(4).toString("hex")}@example.com`;
    // Fixed letters, digit and symbol first: the random part alone does not always satisfy the password rule.
    const password = secret("password", `Pw-9${randomBytes(12).toString("base64url")}`);
    const wrongPassword = secret("wrong password", `Wrong-${randomBytes(12).toString("base64url")}`);
    const weakPassword = secret("weak password", `w${randomBytes(3).toString("hex").slice(0, 5)}`);
    secret("JWT_SECRET", system.config.JWT_SECRET);
    secret("INTERNAL_AUTH_SECRET", system.config.INTERNAL_AUTH_SECRET);
    secret("SECRETS_ENCRYPTION_KEY", system.config.SECRETS_ENCRYPTION_KEY);
    // Logins on another device than the sign-up's, whose session (adminToken) is used throughout.
    const login = (body: Record<string, unknown>) => api.post("/api/v1/auth/login", { email, device: SECOND_DEVICE, ...body });

    // Signup (and a refused one whose weak password must not be echoed), a malformed login body.
    const signup = await api.post("/api/v1/auth/signup", { user: { email, password, first_name: "Secret", last_name: "Keeper" }, device: DEVICE });
    expect(signup.status).toBe(201);
    const userId = signup.body.user.id as string;
    const adminToken = secret("signup access token", signup.body.access_token as string);
    secret("signup refresh token", signup.body.refresh_token as string);
    const weak = await api.post("/api/v1/auth/signup", { user: { email: `weak-${email}`, password: weakPassword }, device: DEVICE });
    expect(weak.status).toBe(422);
    const malformed = await api.request("POST", "/api/v1/auth/login", { rawBody: `{"email":"${email}","password":"${password}",` });
    expect(malformed.status).toBe(400);

    // Login: wrong then right password.
    expect((await login({ password: wrongPassword })).status).toBe(401);
    const session = await login({ password });
    expect(session.status).toBe(200);
    secret("login access token", session.body.access_token as string);
    const refreshToken = secret("login refresh token", session.body.refresh_token as string);

    // Refresh, then the spent refresh token again (reuse: the session ends).
    const refreshed = await api.post("/api/v1/auth/refresh", { refresh_token: refreshToken, device: { device_id: SECOND_DEVICE.device_id } });
    expect(refreshed.status).toBe(200);
    const refreshedAccess = secret("refreshed access token", refreshed.body.access_token as string);
    secret("refreshed refresh token", refreshed.body.refresh_token as string);
    const reuse = await api.post("/api/v1/auth/refresh", { refresh_token: refreshToken, device: { device_id: SECOND_DEVICE.device_id } });
    expect(reuse.status).toBe(401);

    // Bad bearer tokens: one of the session just ended, one forged.
    expect((await api.get("/api/v1/users/me", { token: refreshedAccess })).status).toBe(401);
    const [header, payload] = refreshedAccess.split(".");
    const forged = secret("forged bearer token", `${header}.${payload}.${randomBytes(32).toString("base64url")}`);
    expect((await api.get("/api/v1/users/me", { token: forged })).status).toBe(401);
    expect((await api.get("/api/v1/users/me", { token: secret("garbage bearer token", randomBytes(24).toString("base64url")) })).status).toBe(401);

    // An API key: created, used on a gateway route and on one forwarded to a service; a wrong one.
    const created = await api.post("/api/v1/api_keys", { api_key: { name: "secret scan", scopes: ["read_write"] } }, { token: adminToken });
    expect(created.status).toBe(201);
    const apiKey = secret("API key", created.body.key as string);
    expect((await api.get("/api/v1/users/me", { apiKey })).status).toBe(200);
    expect((await api.get("/api/v1/tags", { apiKey })).status).toBe(200);
    expect((await api.post("/api/v1/tags", { tag: { name: "Scanned" } }, { apiKey })).status).toBe(201);
    expect((await api.get("/api/v1/tags", { apiKey: secret("wrong API key", `hk_${randomBytes(30).toString("base64url")}`) })).status).toBe(401);

    // MFA: enrol, a wrong then a right confirmation code, logins with a wrong code, a code and a backup code.
    const enrol = await api.post("/api/v1/auth/mfa", undefined, { token: adminToken });
    expect(enrol.status).toBe(201);
    const totpSecret = secret("TOTP secret", enrol.body.secret as string);
    secret("provisioning URI", enrol.body.provisioning_uri as string);
    const wrongConfirm = secret("wrong confirmation OTP code", await totpCode(totpSecret, 20));
    const confirmCode = secret("confirmation OTP code", await totpCode(totpSecret, -1));
    expect((await api.post("/api/v1/auth/mfa/confirm", { otp_code: wrongConfirm }, { token: adminToken })).status).toBe(422);
    const confirm = await api.post("/api/v1/auth/mfa/confirm", { otp_code: confirmCode }, { token: adminToken });
    expect(confirm.status).toBe(200);
    const backupCodes = confirm.body.backup_codes as string[];
    expect(backupCodes).toHaveLength(10);
    backupCodes.forEach((code, i) => {
      secret(`backup code ${i}`, code);
      secret(`backup code ${i} (without dashes)`, code.replaceAll("-", ""));
    });

    expect((await login({ password })).body).toMatchObject({ mfa_required: true });
    expect((await login({ password, otp_code: secret("wrong login OTP code", await totpCode(totpSecret, 40)) })).status).toBe(401);
    const withCode = await login({ password, otp_code: secret("login OTP code", await totpCode(totpSecret)) });
    expect(withCode.status).toBe(200);
    secret("MFA login access token", withCode.body.access_token as string);
    secret("MFA login refresh token", withCode.body.refresh_token as string);
    const withBackup = await login({ password, otp_code: backupCodes[0] });
    expect(withBackup.status).toBe(200);
    const backupAccess = secret("backup-code login access token", withBackup.body.access_token as string);
    secret("backup-code login refresh token", withBackup.body.refresh_token as string);
    expect((await login({ password, otp_code: backupCodes[0] })).status).toBe(401); // spent

    // Logout; its token stops working.
    // SSO: the provider's code and our state arrive in a callback's query string; one-time codes in bodies.
    const ssoCode = secret("SSO authorization code", `code-${randomBytes(16).toString("base64url")}`);
    const ssoState = secret("SSO state", `state-${randomBytes(16).toString("base64url")}`);
    expect((await api.get(`/api/v1/auth/sso/callback?state=${ssoState}&code=${ssoCode}`)).status).toBe(400);
    const exchangeCode = secret("SSO exchange code", `hsso_${randomBytes(16).toString("base64url")}`);
    expect((await api.post("/api/v1/auth/sso_exchange", { code: exchangeCode })).status).toBe(401);
    const linkingCode = secret("SSO linking code", `hlnk_${randomBytes(16).toString("base64url")}`);
    expect((await api.post("/api/v1/auth/sso_create_account", { linking_code: linkingCode })).status).toBe(401);

    expect((await api.post("/api/v1/auth/logout", undefined, { token: backupAccess })).status).toBe(204);
    expect((await api.get("/api/v1/users/me", { token: backupAccess })).status).toBe(401);

    // Every audit event written reaches the audit log (the logout is the last).
    const entries = await eventually(
      async () => {
        expect(await pendingOutboxCount(system)).toBe(0);
        const all = await allAuditEntries(adminToken);
        expect(all.map((entry) => entry.eventType)).toContain("auth.logout");
        return all;
      },
      { timeoutMs: 30_000 },
    );
    expect(entries.map((entry) => entry.eventType)).toEqual(
      expect.arrayContaining([
        "auth.login.failed",
        "auth.login.success",
        "auth.token.issued",
        "auth.token.refreshed",
        "auth.token.revoked",
        "user.updated",
        "auth.logout",
      ]),
    );

    // The capture saw this run: every request the gateway answered left its request id in the logs.
    const errors = exchanges.filter((exchange) => exchange.status >= 400);
    expect(errors.length).toBeGreaterThanOrEqual(12);
    const requestIds = exchanges.map((exchange) => exchange.requestId);
    expect(requestIds.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    await eventually(async () => {
      const logged = new Set(logLines.flatMap((line) => (JSON.parse(line) as { request_id?: string }).request_id ?? []));
      expect(requestIds.filter((id) => !logged.has(id as string))).toEqual([]);
    });
    expect(logLines.some((line) => line.includes("/api/v1/auth/login"))).toBe(true);
    // ...and the audit entries scanned are this user's.
    expect(entries.filter((entry) => entry.user?.id === userId).length).toBeGreaterThanOrEqual(10);

    const leaks = findLeaks(
      [
        ...logLines.map((text, i) => ({ where: `log line ${i}`, text })),
        ...consoleLines.map((text, i) => ({ where: `console line ${i}`, text })),
        ...entries.map((entry) => ({ where: `audit entry ${entry.eventType} ${entry.id}`, text: JSON.stringify(entry) })),
        ...errors.map((exchange) => ({
          where: `error answer ${exchange.status} to ${exchange.method} ${exchange.path}`,
          text: JSON.stringify({ headers: exchange.headers, body: exchange.body }),
        })),
      ],
      secrets,
      SECRET_SHAPES,
    );
    expect(leaks).toEqual([]);
    // console is captured above: report straight to stdout.
    process.stdout.write(
      `[no-secrets-in-logs] scanned ${logLines.length} log lines, ${consoleLines.length} console lines, ${entries.length} audit entries, ` +
        `${errors.length} error answers for ${secrets.length} secrets\n`,
    );
  });
});
