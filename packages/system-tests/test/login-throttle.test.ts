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
    expect(locked.body).toMatchObject({ error: "rate_limit_exceeded", message: expect.stringMatching(/Too many failed logins/) });
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

  it("locks an IP that fails for many accounts", async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) expect((await login(`spray-${i}@example.com`, "Wrong-password-1", ip)).status).toBe(401);
    const user = await signUpUser(api, "bystander");
    expect((await login(user.email, TEST_PASSWORD, ip)).status).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, newIp())).status).toBe(200);
  });
});
