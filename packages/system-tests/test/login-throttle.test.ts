import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, expectAuditEntries, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

// Each test speaks from an IP of its own (X-Forwarded-For, trusted here) so per-IP counts stay apart.
let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { TRUST_PROXY: "1" } });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

let lastIp = 0;
const newIp = () => `198.51.100.${++lastIp}`;
const login = (email: string, password: string, ip: string) =>
  api.post("/api/v1/auth/login", { email, password, device: DEVICE }, { headers: { "x-forwarded-for": ip } });

describe("login throttling", () => {
  it("locks an account after 5 failures, even for the right password, and says when to retry", async () => {
    const user = await signUpUser(api, "locked");
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(user.email, "Wrong-password-1", ip)).status).toBe(401);
    const locked = await login(user.email, TEST_PASSWORD, newIp());
    expect(locked.status).toBe(429);
    // The sentence in `error`, which Sure's app shows (auth_service.dart 18-23); the code in `code`.
    expect(locked.body).toMatchObject({
      error: expect.stringMatching(/^Too many failed sign-ins to this account\. Try again in \d+ seconds?\.$/),
      code: "rate_limit_exceeded",
    });
    expect(locked.body.message).toBe(locked.body.error);
    expect(locked.body.details.reset_in_seconds).toBeGreaterThan(0);
    expect(locked.headers.get("retry-after")).toBe(String(locked.body.details.reset_in_seconds));
    const [entry] = await expectAuditEntries(api, user.accessToken, `eventType=auth.login.failed&limit=100`, 6).then((all) =>
      all.filter((e) => e.error === "locked_out"),
    );
    expect(entry).toMatchObject({ severity: "warning", user: { id: user.id } });
  });

  it("locks an unknown email the same way, so a lockout reveals nothing", async () => {
    const email = `nobody-${randomBytes(3).toString("hex")}@example.com`;
    const ip = newIp();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await login(email, "Wrong-password-1", ip)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("starts an account afresh after a successful login", async () => {
    const user = await signUpUser(api, "reset");
    const ip = newIp();
    for (let i = 0; i < 4; i++) await login(user.email, "Wrong-password-1", ip);
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(user.email, "Wrong-password-1", ip)).status).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
  });

  it("locks an IP that fails for many accounts, after the 100 failures a shared network may make in an hour", async () => {
    const ip = newIp();
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(`spray-${i}@example.com`, "Wrong-password-1", ip).then((res) => res.status)),
    );
    expect(statuses.every((status) => status === 401)).toBe(true);
    const user = await signUpUser(api, "bystander");
    const newPhone = { ...DEVICE, device_id: "bystander-new-phone" };
    const refused = await api.post(
      "/api/v1/auth/login",
      { email: user.email, password: TEST_PASSWORD, device: newPhone },
      { headers: { "x-forwarded-for": ip } },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many failed sign-ins from this network\. Try again in \d+ (seconds?|minutes?)\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(
      (await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: newPhone }, { headers: { "x-forwarded-for": newIp() } }))
        .status,
    ).toBe(200);
  });

  it("lets the right password through a locked IP from a device the account is signed in on, counting its failures per account still", async () => {
    const ip = newIp();
    await Promise.all(Array.from({ length: 100 }, (_, i) => login(`household-${i}@example.com`, "Wrong-password-1", ip)));
    // A phone signed out (its session ended) is no longer one the account is signed in on.
    const away = await signUpUser(api, "household-away");
    expect((await api.post("/api/v1/auth/logout", undefined, { token: away.accessToken })).status).toBe(204);
    expect((await login(away.email, TEST_PASSWORD, ip)).body.error).toMatch(/^Too many failed sign-ins from this network\./);
    // signUpUser signed in on DEVICE: that phone is signed in, on the household's own locked address.
    const user = await signUpUser(api, "household");
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(200);
    // A signed-in device is no way around the account's own allowance.
    for (let i = 0; i < 5; i++) expect((await login(user.email, "Wrong-password-1", ip)).status).toBe(401);
    const locked = await login(user.email, TEST_PASSWORD, ip);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toMatch(/^Too many failed sign-ins to this account\./);
  });
});

/** The auth.login.failed events written for this user, by their `error`, straight from the gateway's outbox. */
async function loginFailuresOf(userId: string): Promise<string[]> {
  const rows = await system.db.gateway.$queryRaw<{ error: string }[]>`
    SELECT payload->>'error' AS error FROM outbox_events
     WHERE payload->>'eventType' = 'auth.login.failed' AND payload->'user'->>'id' = ${userId} ORDER BY id`;
  return rows.map((row) => row.error);
}

const statusCounts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe("login throttling under parallel guesses", () => {
  it("checks at most the account's 5 guesses of 200 sent at once from 200 IPs, then refuses even the right password", async () => {
    const user = await signUpUser(api, "parallel");
    const guesses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(user.email, `Wrong-password-${i}`, `10.1.${i >> 8}.${i & 255}`)));
    const counts = statusCounts(guesses.map((res) => res.status));
    // Only 401 (a guess checked and wrong) or 429 (refused before any check); never more checked than allowed.
    expect(Object.keys(counts).sort()).toEqual(["401", "429"]);
    expect(counts[401]).toBe(5);
    expect((await login(user.email, TEST_PASSWORD, newIp())).status).toBe(429);
  });

  it("checks at most an IP's 100 guesses of 200 sent at once for 200 accounts", async () => {
    const ip = newIp();
    const guesses = await Promise.all(Array.from({ length: 200 }, (_, i) => login(`parallel-spray-${i}@example.com`, "Wrong-password-1", ip)));
    const counts = statusCounts(guesses.map((res) => res.status));
    expect(Object.keys(counts).sort()).toEqual(["401", "429"]);
    expect(counts[401]).toBe(100);
    // The IP is counted first: once it is locked, guesses for new emails leave no row per email.
    expect(await system.db.gateway.loginThrottle.count({ where: { key: { startsWith: "email:parallel-spray-" } } })).toBe(100);
  });

  it("records the lockout once when it starts, not once per refused attempt", async () => {
    const user = await signUpUser(api, "quiet");
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(user.email, "Wrong-password-1", ip)).status).toBe(401);
    for (let i = 0; i < 30; i++) expect((await login(user.email, "Wrong-password-1", ip)).status).toBe(429);
    expect(await loginFailuresOf(user.id)).toEqual([
      "invalid_password",
      "invalid_password",
      "invalid_password",
      "invalid_password",
      "invalid_password",
      "locked_out",
    ]);
  });
});
