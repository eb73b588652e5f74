import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, clearOfWindowEdge, startSystem, type ApiClient, type TestSystem } from "../src";

// A small allowance, and each test from an IP of its own (X-Forwarded-For, trusted here).
const LIMIT = 3;
const WINDOW_SECONDS = 3600;
let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    gatewayEnv: { TRUST_PROXY: "1", SIGNUP_RATE_LIMIT_REQUESTS: String(LIMIT), SIGNUP_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) },
  });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

let lastIp = 0;
const newIp = () => `192.0.2.${++lastIp}`;
const signup = (ip: string, label = "signup", email = `${label}-${randomBytes(4).toString("hex")}@example.com`) =>
  api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE }, { headers: { "x-forwarded-for": ip } });

describe("signup throttling", () => {
  beforeEach(() => clearOfWindowEdge(WINDOW_SECONDS));

  it("allows each client IP its signups per window, then answers 429 with when to retry", async () => {
    const ip = newIp();
    for (let i = 0; i < LIMIT; i++) expect((await signup(ip)).status).toBe(201);
    const refused = await signup(ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: "rate_limit_exceeded",
      message: expect.stringMatching(/^Too many sign-ups from this address\. Try again in \d+ seconds\.$/),
    });
    expect(refused.body.details.reset_in_seconds).toBeGreaterThan(0);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.reset_in_seconds));
    // Another address is counted apart.
    expect((await signup(newIp())).status).toBe(201);
  });

  it("counts every attempt before its work, so 50 at once create at most the allowance", async () => {
    const ip = newIp();
    const answers = await Promise.all(Array.from({ length: 50 }, () => signup(ip, "burst")));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(LIMIT);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(50 - LIMIT);
    expect(await system.db.gateway.user.count({ where: { email: { startsWith: "burst-" } } })).toBe(LIMIT);
  });

  it("counts an IPv6 client by its /64: a new address in the same block gets no new allowance", async () => {
    for (let i = 1; i <= LIMIT; i++) expect((await signup(`2001:db8:77:1::${i}`)).status).toBe(201);
    expect((await signup("2001:db8:77:1:ffff::abcd")).status).toBe(429);
    expect((await signup("2001:db8:77:2::1")).status).toBe(201);
  });
});
