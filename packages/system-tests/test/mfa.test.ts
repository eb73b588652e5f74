import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  expectAuditEntries,
  signUpUser,
  startSystem,
  totpCode,
  type ApiClient,
  type TestSystem,
  type TestUser,
} from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

/** On another device than the sign-up's, whose session the tests use throughout (a login ends its device's earlier sessions). */
function login(email: string, otpCode?: string) {
  return api.post("/api/v1/auth/login", { email, password: TEST_PASSWORD, device: SECOND_DEVICE, ...(otpCode === undefined ? {} : { otp_code: otpCode }) });
}

/** A user with MFA enrolled and confirmed (with the code of the previous step, so the current and next ones stay unused). */
async function userWithMfa(label: string): Promise<{ user: TestUser; secret: string; backupCodes: string[] }> {
  const user = await signUpUser(api, label);
  const enrol = await api.post("/api/v1/auth/mfa", undefined, { token: user.accessToken });
  expect(enrol.status).toBe(201);
  const confirm = await api.post("/api/v1/auth/mfa/confirm", { otp_code: await totpCode(enrol.body.secret, -1) }, { token: user.accessToken });
  expect(confirm.status).toBe(200);
  return { user, secret: enrol.body.secret, backupCodes: confirm.body.backup_codes };
}

describe("MFA enrolment", () => {
  it("enrols, stays pending until a right code confirms it, then answers ten one-time backup codes", async () => {
    const user = await signUpUser(api, "mfa-enrol");
    const auth = { token: user.accessToken };
    expect((await api.get("/api/v1/auth/mfa", auth)).body).toEqual({ enabled: false, pending: false, backup_codes_remaining: 0 });

    const enrol = await api.post("/api/v1/auth/mfa", undefined, auth);
    expect(enrol.status).toBe(201);
    expect(enrol.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrol.body.provisioning_uri).toMatch(/^otpauth:\/\/totp\/Hearth:.*secret=/);
    expect((await api.get("/api/v1/auth/mfa", auth)).body).toMatchObject({ enabled: false, pending: true });

    const stored = await system.db.gateway.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.otpSecret).not.toContain(enrol.body.secret);

    const wrong = await api.post("/api/v1/auth/mfa/confirm", { otp_code: "000000" }, auth);
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: "validation_failed", errors: ["Otp code is invalid"] });

    const confirm = await api.post("/api/v1/auth/mfa/confirm", { otp_code: await totpCode(enrol.body.secret) }, auth);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({ enabled: true, pending: false, backup_codes_remaining: 10 });
    expect(new Set(confirm.body.backup_codes).size).toBe(10);
    expect((await api.get("/api/v1/auth/mfa", auth)).body).toEqual({ enabled: true, pending: false, backup_codes_remaining: 10 });
    expect((await api.post("/api/v1/auth/mfa", undefined, auth)).status).toBe(409);

    const [entry] = await expectAuditEntries(api, user.accessToken, "eventType=user.updated", 1);
    expect(entry).toMatchObject({ severity: "info", user: { id: user.id }, changes: { mfa_enabled: { old: false, new: true } } });
    expect(JSON.stringify(entry)).not.toContain(enrol.body.secret);
  });

  it("is managed with a bearer token only: an API key gets 403", async () => {
    const user = await signUpUser(api, "mfa-key");
    expect((await api.post("/api/v1/auth/mfa", undefined, { apiKey: user.writeKey })).status).toBe(403);
    expect((await api.get("/api/v1/auth/mfa", { apiKey: user.readKey })).status).toBe(403);
    expect((await api.get("/api/v1/auth/mfa")).status).toBe(401);
  });
});

describe("login with MFA", () => {
  it("asks for the code with Sure's MFA body, refuses a wrong one, accepts a right one once", async () => {
    const { user, secret } = await userWithMfa("mfa-login");

    const missing = await login(user.email);
    expect(missing.status).toBe(401);
    // Sure's MFA body, with the spec's message and catalogue code beside it.
    expect(missing.body).toEqual({
      error: "Two-factor authentication required",
      message: "Two-factor authentication required",
      code: "unauthorized",
      mfa_required: true,
    });

    const wrong = await login(user.email, "123456");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ mfa_required: true });

    const code = await totpCode(secret);
    const right = await login(user.email, code);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ token_type: "Bearer", user: { id: user.id } });

    const replay = await login(user.email, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ mfa_required: true });

    const failures = await expectAuditEntries(api, user.accessToken, "eventType=auth.login.failed", 2);
    expect(failures.map((entry) => entry.error)).toEqual(["invalid_otp", "invalid_otp"]);
  });

  it("accepts each backup code once, in any case and with or without dashes", async () => {
    const { user, backupCodes } = await userWithMfa("mfa-backup");
    const [first, second] = backupCodes as [string, string];
    expect((await login(user.email, first)).status).toBe(200);
    expect((await login(user.email, first)).status).toBe(401);
    expect((await login(user.email, second.replaceAll("-", "").toUpperCase())).status).toBe(200);
    expect((await api.get("/api/v1/auth/mfa", { token: user.accessToken })).body).toMatchObject({ backup_codes_remaining: 8 });
  });

  it("regenerates backup codes (old ones stop working) and disables MFA with a current code", async () => {
    const { user, secret, backupCodes } = await userWithMfa("mfa-disable");
    const auth = { token: user.accessToken };
    const regenerated = await api.post("/api/v1/auth/mfa/backup_codes", { otp_code: backupCodes[0] }, auth);
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.backup_codes).toHaveLength(10);
    expect((await login(user.email, backupCodes[1])).status).toBe(401);

    expect((await api.post("/api/v1/auth/mfa/disable", { otp_code: "999999" }, auth)).status).toBe(422);
    const disabled = await api.post("/api/v1/auth/mfa/disable", { otp_code: await totpCode(secret) }, auth);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ enabled: false, pending: false, backup_codes_remaining: 0 });
    expect((await login(user.email)).status).toBe(200);
    expect((await api.post("/api/v1/auth/mfa/disable", { otp_code: "123456" }, auth)).status).toBe(409);

    const updates = await expectAuditEntries(api, user.accessToken, "eventType=user.updated", 2);
    expect(updates[0]).toMatchObject({ changes: { mfa_enabled: { old: true, new: false } } });
  });
});

describe("second-factor guesses under parallel load", () => {
  const statusCounts = (statuses: number[]) =>
    statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  // Never a current code: the codes of the steps around now are left out.
  async function wrongCodes(secret: string, count: number): Promise<string[]> {
    const current = new Set(await Promise.all([-1, 0, 1].map((steps) => totpCode(secret, steps))));
    return Array.from({ length: count * 2 }, (_, i) => String(100_000 + i * 7919).slice(-6))
      .filter((code) => !current.has(code))
      .slice(0, count);
  }

  it("checks at most 5 of 200 wrong codes sent at once with the right password, then refuses the right code", async () => {
    const { user, secret } = await userWithMfa("mfa-parallel-login");
    const answers = await Promise.all((await wrongCodes(secret, 200)).map((code) => login(user.email, code)));
    const counts = statusCounts(answers.map((res) => res.status));
    expect(Object.keys(counts).sort()).toEqual(["401", "429"]);
    expect(counts[401]).toBe(5);
    expect((await login(user.email, await totpCode(secret))).status).toBe(429);
  });

  it("checks at most 5 of 200 wrong codes sent at once to disable MFA, then refuses the right code", async () => {
    const { user, secret } = await userWithMfa("mfa-parallel-disable");
    const auth = { token: user.accessToken };
    const answers = await Promise.all((await wrongCodes(secret, 200)).map((code) => api.post("/api/v1/auth/mfa/disable", { otp_code: code }, auth)));
    const counts = statusCounts(answers.map((res) => res.status));
    expect(Object.keys(counts).sort()).toEqual(["422", "429"]);
    expect(counts[422]).toBe(5);
    const locked = await api.post("/api/v1/auth/mfa/disable", { otp_code: await totpCode(secret) }, auth);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ error: expect.stringMatching(/^Too many wrong codes\. Try again in /), code: "rate_limit_exceeded" });
    expect(locked.headers.get("retry-after")).toBe(String(locked.body.details.reset_in_seconds));
  });
});
