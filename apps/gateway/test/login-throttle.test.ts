import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { applyMigrations } from "@hearth/service-kit/migrations";
import { createFreshDatabases, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { createLoginThrottle, DEFAULT_LOGIN_THROTTLE } from "../src/identity/auth/login-throttle";
import { MIGRATIONS_DIR, createIdentityDb, type IdentityDb } from "../src/db";

let databases: FreshDatabases<"gateway">;
let db: IdentityDb;

beforeAll(async () => {
  databases = await createFreshDatabases(testPostgresAdminUrl(), ["gateway"] as const);
  await applyMigrations({ databaseUrl: databases.urls.gateway, migrationsDir: MIGRATIONS_DIR });
  db = createIdentityDb(databases.urls.gateway);
});
afterAll(async () => {
  await db?.$disconnect();
  await databases?.drop();
});

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

async function lockSeconds(check: Promise<void>): Promise<number | null> {
  try {
    await check;
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("rate_limit_exceeded");
    return ((err as AppError).details as { reset_in_seconds: number }).reset_in_seconds;
  }
}

describe("login throttle", () => {
  it("locks an account after its allowance, doubling the lock with each further failure", async () => {
    const throttle = createLoginThrottle(db);
    const email = "locked@example.com";
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.accountFailures - 1; i++) await throttle.recordFailure(email, null, at(i));
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(10)))).toBeNull();
    await throttle.recordFailure(email, null, at(10)); // the 5th: locked for 30 s
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(11)))).toBe(29);
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(40)))).toBeNull();
    await throttle.recordFailure(email, null, at(41)); // the 6th: 60 s
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(41)))).toBe(60);
    await throttle.recordFailure(email, null, at(102)); // the 7th: 120 s
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(102)))).toBe(120);
  });

  it("caps the lock, and forgets failures after a quiet hour", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, accountFailures: 1, maxLockSeconds: 100 });
    const email = "capped@example.com";
    for (let i = 0; i < 10; i++) await throttle.recordFailure(email, null, at(i));
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(9)))).toBe(100);
    await throttle.recordFailure(email, null, at(9 + 3601)); // a quiet hour later: back to the first lock
    expect(await lockSeconds(throttle.assertAllowed(email, null, at(9 + 3601)))).toBe(30);
  });

  it("clears an account's failures on success, but not its IP's", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, accountFailures: 3, ipFailures: 5 });
    const ip = "203.0.113.7";
    for (let i = 0; i < 2; i++) await throttle.recordFailure("a@example.com", ip, at(i));
    await throttle.recordSuccess("a@example.com");
    for (let i = 0; i < 2; i++) await throttle.recordFailure("a@example.com", ip, at(10 + i));
    expect(await lockSeconds(throttle.assertAllowed("a@example.com", null, at(20)))).toBeNull();
    // The IP has 4 failures; one more, for any account, locks the IP for every account.
    await throttle.recordFailure("b@example.com", ip, at(21));
    expect(await lockSeconds(throttle.assertAllowed("c@example.com", ip, at(22)))).toBe(29);
    expect(await lockSeconds(throttle.assertAllowed("c@example.com", "198.51.100.1", at(22)))).toBeNull();
  });
});
