import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { createMigratedDatabases, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { createLoginThrottle, untilUnlocked, DEFAULT_LOGIN_THROTTLE } from "../src/identity/auth/login-throttle";
import { MIGRATIONS_DIR, createIdentityDb, type IdentityDb } from "../src/db";

let databases: FreshDatabases<"gateway">;
let db: IdentityDb;

beforeAll(async () => {
  databases = await createMigratedDatabases(testPostgresAdminUrl(), { gateway: MIGRATIONS_DIR });
  db = createIdentityDb(databases.urls.gateway);
});
afterAll(async () => {
  await db?.$disconnect();
  await databases?.drop();
});

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);

/** Null when the attempt is admitted (and counted), else the seconds its 429 says to wait. */
async function lockSeconds(admission: Promise<unknown>): Promise<number | null> {
  try {
    await admission;
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("rate_limit_exceeded");
    return ((err as AppError).details as { reset_in_seconds: number }).reset_in_seconds;
  }
}

describe("login throttle", () => {
  it("counts attempts before they are checked and locks at the allowance, doubling the lock with each further attempt", async () => {
    const throttle = createLoginThrottle(db);
    const email = "locked@example.com";
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.accountFailures - 1; i++) {
      expect(await throttle.admitLogin(email, null, at(i))).toEqual({ lockStarted: false, countedIp: null });
    }
    expect(await throttle.admitLogin(email, null, at(10))).toEqual({ lockStarted: true, countedIp: null }); // the 5th: locked for 30 s
    expect(await lockSeconds(throttle.admitLogin(email, null, at(11)))).toBe(29);
    expect(await throttle.admitLogin(email, null, at(41))).toEqual({ lockStarted: true, countedIp: null }); // the 6th: 60 s
    expect(await lockSeconds(throttle.admitLogin(email, null, at(42)))).toBe(59);
    await throttle.admitLogin(email, null, at(102)); // the 7th: 120 s
    expect(await lockSeconds(throttle.admitLogin(email, null, at(102)))).toBe(120);
  });

  it("admits exactly the allowance of 200 attempts made at once", async () => {
    const throttle = createLoginThrottle(db);
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => lockSeconds(throttle.admitLogin("parallel@example.com", `192.0.2.${i}`, at(0)))));
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(DEFAULT_LOGIN_THROTTLE.accountFailures);
    // The IPs of the refused attempts got their count back: each has one attempt at most.
    const ips = await db.loginThrottle.findMany({ where: { key: { startsWith: "ip:192.0.2." } } });
    expect(ips.reduce((sum, row) => sum + row.failures, 0)).toBe(DEFAULT_LOGIN_THROTTLE.accountFailures);
  });

  it("caps the lock, and forgets attempts after a quiet hour", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, accountFailures: 1, maxLockSeconds: 100 });
    const email = "capped@example.com";
    // Each admitted attempt locks; the next is admitted once the lock has passed.
    let now = 0;
    for (let i = 0; i < 10; i++) {
      await throttle.admitLogin(email, null, at(now));
      now += Math.min(100, 30 * 2 ** i);
    }
    expect(await lockSeconds(throttle.admitLogin(email, null, at(now - 1)))).toBe(1);
    await throttle.admitLogin(email, null, at(now));
    expect(await lockSeconds(throttle.admitLogin(email, null, at(now)))).toBe(100);
    await throttle.admitLogin(email, null, at(now + 3601)); // a quiet hour later: back to the first lock
    expect(await lockSeconds(throttle.admitLogin(email, null, at(now + 3601)))).toBe(30);
  });

  it("clears an account's count on success, and gives the IP back only that attempt", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, accountFailures: 3, ipFailures: 5 });
    const ip = "203.0.113.7";
    for (let i = 0; i < 2; i++) await throttle.admitLogin("a@example.com", ip, at(i));
    await throttle.admitLogin("a@example.com", ip, at(2));
    await throttle.recordSuccess("a@example.com", ip);
    for (let i = 0; i < 2; i++) await throttle.admitLogin("a@example.com", ip, at(10 + i));
    expect(await lockSeconds(throttle.admitLogin("a@example.com", null, at(20)))).toBeNull();
    // The IP has 4 failures; one more, for any account, locks the IP for every account.
    expect(await throttle.admitLogin("b@example.com", ip, at(21))).toEqual({ lockStarted: true, countedIp: ip });
    expect(await lockSeconds(throttle.admitLogin("c@example.com", ip, at(22)))).toBe(29);
    expect(await lockSeconds(throttle.admitLogin("c@example.com", "198.51.100.1", at(22)))).toBeNull();
  });

  it("takes back an attempt that was no failure, with the lock it started", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, accountFailures: 2 });
    const email = "refund@example.com";
    await throttle.admitLogin(email, null, at(0));
    expect(await throttle.admitLogin(email, null, at(1))).toEqual({ lockStarted: true, countedIp: null });
    await throttle.refundLogin(email, null);
    expect(await db.loginThrottle.findUniqueOrThrow({ where: { key: `email:${email}` } })).toMatchObject({ failures: 1, lockedUntil: null });
    expect(await lockSeconds(throttle.admitLogin(email, null, at(2)))).toBeNull();
    expect(await lockSeconds(throttle.admitLogin(email, null, at(3)))).toBe(29);
  });

  it("counts second-factor codes per user, apart from the login, until a right one", async () => {
    const throttle = createLoginThrottle(db);
    const userId = "0190a0a0-0000-7000-8000-000000000001";
    for (let i = 0; i < DEFAULT_LOGIN_THROTTLE.secondFactorFailures; i++) await throttle.admitSecondFactor(userId, at(i));
    const locked = await throttle.admitSecondFactor(userId, at(10)).catch((err: unknown) => err);
    expect(locked).toMatchObject({ code: "rate_limit_exceeded", message: expect.stringMatching(/^Too many wrong codes\. Try again in \d+ seconds\.$/) });
    expect((locked as AppError).toBody()).toMatchObject({ error: (locked as AppError).message, code: "rate_limit_exceeded" });
    await throttle.secondFactorPassed(userId);
    expect(await lockSeconds(throttle.admitSecondFactor(userId, at(11)))).toBeNull();
  });

  it("lets a live device through a locked IP, counting it against the account only", async () => {
    const throttle = createLoginThrottle(db, { ...DEFAULT_LOGIN_THROTTLE, ipFailures: 2 });
    const ip = "203.0.113.77";
    await throttle.admitLogin("known-a@example.com", ip, at(0));
    await throttle.admitLogin("known-b@example.com", ip, at(1)); // the IP's 2nd failure: locked
    expect(await lockSeconds(throttle.admitLogin("known-c@example.com", ip, at(2)))).toBe(29);
    let asked = 0;
    const onLiveDevice = async () => (asked++, true);
    expect(await throttle.admitLogin("known-c@example.com", ip, at(2), onLiveDevice)).toEqual({ lockStarted: false, countedIp: null });
    expect(asked).toBe(1);
    expect(await db.loginThrottle.findUniqueOrThrow({ where: { key: "email:known-c@example.com" } })).toMatchObject({ failures: 1 });
    // Not locked, a known device is counted against the IP like any other.
    expect(await throttle.admitLogin("known-d@example.com", "203.0.113.78", at(3), onLiveDevice)).toEqual({ lockStarted: false, countedIp: "203.0.113.78" });
    expect(asked, "asked only while the IP is locked").toBe(1);
  });
});

describe("untilUnlocked", () => {
  it("says how long in the unit a person reads", () => {
    expect([1, 45, 60, 61, 3599, 3600, 7200].map(untilUnlocked)).toEqual([
      "1 second",
      "45 seconds",
      "1 minute",
      "2 minutes",
      "60 minutes",
      "1 hour",
      "2 hours",
    ]);
  });
});
