import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@hearth/service-kit";
import { GatewayEnvSchema } from "../src/config";

const JWT_SECRET = "j".repeat(40);
// Random-looking values, as production needs (the repeated-letter ones above pass only outside production).
const STRONG = {
  INTERNAL_AUTH_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  JWT_SECRET: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752",
  SECRETS_ENCRYPTION_KEY: "fd61a03af4f77d870fc21e05e7e80678095c92d808cfb3b5c279ee04c74aca13",
};
const VALID_ENV = {
  DATABASE_URL: "postgresql://hearth@127.0.0.1:5432/gateway",
  INTERNAL_AUTH_SECRET: "i".repeat(40),
  JWT_SECRET,
  SECRETS_ENCRYPTION_KEY: "s".repeat(40),
  FINANCE_URL: "http://127.0.0.1:4001",
  CHAT_URL: "http://127.0.0.1:4002",
  NOTIFICATIONS_URL: "http://127.0.0.1:4003",
  AUDIT_URL: "http://127.0.0.1:4004",
};

/** The problems loadConfig reports for this environment (fails the test if it loads). */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(GatewayEnvSchema, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error(`loaded: ${JSON.stringify(env)}`);
}

describe("gateway config", () => {
  it("loads a complete environment with the documented defaults", () => {
    expect(loadConfig(GatewayEnvSchema, VALID_ENV)).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      ACCESS_TOKEN_TTL_SECONDS: 3600,
      REFRESH_TOKEN_TTL_DAYS: 30,
      REFRESH_REUSE_GRACE_SECONDS: 30,
      BODY_LIMIT: "1mb",
      TRUST_PROXY: 0,
      NODE_ENV: "development",
    });
  });

  it("reads an empty KAFKA_BROKERS as not set (the direct audit path)", () => {
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, KAFKA_BROKERS: "" }).KAFKA_BROKERS).toBeUndefined();
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, KAFKA_BROKERS: "127.0.0.1:9092" }).KAFKA_BROKERS).toBe("127.0.0.1:9092");
  });

  it("names every bad variable at once: a missing JWT_SECRET and a bad FINANCE_URL", () => {
    const problems = problemsOf({ ...VALID_ENV, JWT_SECRET: undefined, FINANCE_URL: "not a url" });
    expect(problems).toHaveLength(2);
    expect(problems).toContain("JWT_SECRET is required but not set");
    expect(problems.find((problem) => problem.startsWith("FINANCE_URL:"))).toBeDefined();
    expect(() => loadConfig(GatewayEnvSchema, { ...VALID_ENV, JWT_SECRET: undefined })).toThrow(/JWT_SECRET/);
  });

  it("refuses a short JWT_SECRET without echoing it", () => {
    const problems = problemsOf({ ...VALID_ENV, JWT_SECRET: "short-secret" });
    expect(problems).toEqual(["JWT_SECRET: must be at least 32 characters"]);
  });

  it("in production, refuses to start on a known default or placeholder secret, naming each variable and never the value", () => {
    const compose = {
      INTERNAL_AUTH_SECRET: "dev-only-internal-auth-secret-change-me-0000",
      JWT_SECRET: "dev-only-jwt-secret-change-me-0000000000000",
      SECRETS_ENCRYPTION_KEY: "dev-only-secrets-key-change-me-000000000000",
    };
    const problems = problemsOf({ ...VALID_ENV, ...compose, NODE_ENV: "production" });
    expect(problems.map((problem) => problem.split(":")[0])).toEqual(["INTERNAL_AUTH_SECRET", "JWT_SECRET", "SECRETS_ENCRYPTION_KEY"]);
    expect(problems[0]).toContain("is a published development default");
    for (const value of Object.values(compose)) expect(problems.join("\n")).not.toContain(value);
    // The same values still run a development machine.
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, ...compose }).JWT_SECRET).toBe(compose.JWT_SECRET);
  });

  it("in production, refuses placeholders and repeated characters, and accepts random secrets", () => {
    expect(problemsOf({ ...VALID_ENV, ...STRONG, NODE_ENV: "production", JWT_SECRET: "please-change-me-before-going-live-0123456789" })).toEqual([
      expect.stringMatching(/^JWT_SECRET: looks like a placeholder \(contains "change-me"\)/),
    ]);
    expect(problemsOf({ ...VALID_ENV, ...STRONG, NODE_ENV: "production", SECRETS_ENCRYPTION_KEY: "s".repeat(40) })).toEqual([
      expect.stringMatching(/^SECRETS_ENCRYPTION_KEY: has fewer than 10 distinct characters/),
    ]);
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, ...STRONG, NODE_ENV: "production" }).NODE_ENV).toBe("production");
  });

  it("in production, refuses a published default kept as a retired key (tokens forged with it would still verify)", () => {
    const problems = problemsOf({ ...VALID_ENV, ...STRONG, NODE_ENV: "production", JWT_PREVIOUS_KEYS: "old:dev-only-jwt-secret-change-me-0000000000000" });
    expect(problems).toEqual([expect.stringMatching(/^JWT_PREVIOUS_KEYS: is a published development default/)]);
  });

  it("needs the URL of every service", () => {
    const problems = problemsOf({ ...VALID_ENV, FINANCE_URL: undefined, CHAT_URL: undefined, NOTIFICATIONS_URL: undefined, AUDIT_URL: undefined });
    expect(problems.sort()).toEqual(["AUDIT_URL", "CHAT_URL", "FINANCE_URL", "NOTIFICATIONS_URL"].map((key) => `${key} is required but not set`));
  });

  it("reads Sure's mobile SSO providers as name=provider-id pairs, and refuses anything else", () => {
    const id = "0190a0a0-0000-7000-8000-000000000001";
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, SSO_MOBILE_PROVIDERS: ` google_oauth2=${id} , ` }).SSO_MOBILE_PROVIDERS).toEqual({ google_oauth2: id });
    expect(loadConfig(GatewayEnvSchema, VALID_ENV).SSO_MOBILE_PROVIDERS).toEqual({});
    for (const bad of ["google_oauth2", `Google=${id}`, "google_oauth2=not-a-uuid"]) {
      expect(
        problemsOf({ ...VALID_ENV, SSO_MOBILE_PROVIDERS: bad }).map((problem) => problem.split(":")[0]),
        bad,
      ).toEqual(["SSO_MOBILE_PROVIDERS"]);
    }
  });

  it("refuses token lifetimes out of range", () => {
    const problems = problemsOf({ ...VALID_ENV, ACCESS_TOKEN_TTL_SECONDS: "30", REFRESH_TOKEN_TTL_DAYS: "0" });
    expect(problems.map((problem) => problem.split(":")[0])).toEqual(["ACCESS_TOKEN_TTL_SECONDS", "REFRESH_TOKEN_TTL_DAYS"]);
  });

  it("refuses a service URL without an http(s) scheme (host:port is read as a URL scheme)", () => {
    for (const url of ["finance:4001", "localhost:4001"]) {
      expect(
        problemsOf({ ...VALID_ENV, FINANCE_URL: url }).map((problem) => problem.split(":")[0]),
        url,
      ).toEqual(["FINANCE_URL"]);
    }
  });

  it("refuses a DATABASE_URL that is not a postgresql:// URL, as its message says", () => {
    expect(problemsOf({ ...VALID_ENV, DATABASE_URL: "http://127.0.0.1:5432/gateway" })).toEqual(["DATABASE_URL: must be a postgresql:// URL"]);
  });

  it("reads retired signing keys as kid:secret pairs, and names a malformed list", () => {
    const config = loadConfig(GatewayEnvSchema, {
      ...VALID_ENV,
      JWT_KEY_ID: "2026-11",
      JWT_PREVIOUS_KEYS: ` 2026-01:${"a".repeat(32)} ,2025-06:${"b".repeat(40)}`,
    });
    expect(config.JWT_PREVIOUS_KEYS).toEqual([
      { kid: "2026-01", secret: "a".repeat(32) },
      { kid: "2025-06", secret: "b".repeat(40) },
    ]);
    expect(loadConfig(GatewayEnvSchema, VALID_ENV)).toMatchObject({ JWT_KEY_ID: "primary", JWT_PREVIOUS_KEYS: [] });
    expect(problemsOf({ ...VALID_ENV, JWT_PREVIOUS_KEYS: "no-colon-here" }).join()).toMatch(/JWT_PREVIOUS_KEYS/);
    expect(problemsOf({ ...VALID_ENV, JWT_PREVIOUS_KEYS: "old:short" }).join()).toMatch(/JWT_PREVIOUS_KEYS.*32 characters/);
    expect(problemsOf({ ...VALID_ENV, JWT_PREVIOUS_KEYS: `a:${"x".repeat(32)},a:${"y".repeat(32)}` }).join()).toMatch(/distinct/);
    expect(problemsOf({ ...VALID_ENV, JWT_PREVIOUS_KEYS: "old:tooshort-secret" }).join()).not.toContain("tooshort-secret");
  });

  it('refuses private SSO issuers unless SSO_ALLOW_PRIVATE_ISSUERS is "true", and throttles sign-in starts by default', () => {
    expect(loadConfig(GatewayEnvSchema, VALID_ENV)).toMatchObject({
      SSO_ALLOW_PRIVATE_ISSUERS: false,
      SSO_AUTHORIZE_RATE_LIMIT_REQUESTS: 30,
      SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS: 600,
    });
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, SSO_ALLOW_PRIVATE_ISSUERS: "true" }).SSO_ALLOW_PRIVATE_ISSUERS).toBe(true);
    expect(loadConfig(GatewayEnvSchema, { ...VALID_ENV, SSO_ALLOW_PRIVATE_ISSUERS: "false" }).SSO_ALLOW_PRIVATE_ISSUERS).toBe(false);
    expect(problemsOf({ ...VALID_ENV, SSO_ALLOW_PRIVATE_ISSUERS: "yes" })).toEqual(['SSO_ALLOW_PRIVATE_ISSUERS: must be "true" or "false"']);
  });
});
