import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "@hearth/service-kit";
import { createMigratedDatabases, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { MIGRATIONS_DIR, createIdentityDb, type IdentityDb } from "../src/db";
import { createIdentitySweeper } from "../src/identity/maintenance/identity-sweeper";

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

const NOW = new Date(Date.UTC(2026, 0, 1));
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const HOUR = 3600;
const log = createLogger("test", "silent");
const sweeperOf = (batchSize = 500) =>
  createIdentitySweeper(db, {
    intervalSeconds: 600,
    throttleForgetSeconds: HOUR,
    idempotencyRetentionMs: 86_400_000,
    throttleWindowSeconds: HOUR,
    batchSize,
    log,
  });

async function newUser(): Promise<string> {
  return (await db.user.create({ data: { email: `${randomUUID()}@example.com`, passwordHash: "x" } })).id;
}

async function newSession(userId: string, revokedAt: Date | null, tokens: { expiresAt: Date; revokedAt: Date | null }[]) {
  const session = await db.session.create({ data: { userId, deviceId: "test", revokedAt, revokedReason: revokedAt ? "logout" : null } });
  for (const token of tokens) await db.refreshToken.create({ data: { userId, sessionId: session.id, tokenHash: randomUUID(), ...token } });
  return session.id;
}

describe("identity sweep", () => {
  it("purges login throttle keys that are unlocked and quiet past the forget window, and keeps the others", async () => {
    await db.loginThrottle.createMany({
      data: [
        { key: "email:stale@example.com", failures: 3, lastFailureAt: ago(HOUR + 1), lockedUntil: null },
        { key: "ip:192.0.2.1", failures: 7, lastFailureAt: ago(2 * HOUR), lockedUntil: ago(HOUR) },
        { key: "email:recent@example.com", failures: 4, lastFailureAt: ago(60), lockedUntil: null },
        { key: "email:still-locked@example.com", failures: 30, lastFailureAt: ago(HOUR + 1), lockedUntil: later(60) },
      ],
    });
    expect((await sweeperOf().sweep(NOW)).loginThrottles).toBe(2);
    const left = await db.loginThrottle.findMany({ orderBy: { key: "asc" } });
    expect(left.map((row) => row.key)).toEqual(["email:recent@example.com", "email:still-locked@example.com"]);
  });

  it("purges expired refresh tokens, keeping spent ones until they expire, and ended sessions once their last token is gone", async () => {
    const userId = await newUser();
    const live = await newSession(userId, null, [
      { expiresAt: ago(1), revokedAt: ago(HOUR) }, // spent long ago and expired: gone
      { expiresAt: later(HOUR), revokedAt: ago(60) }, // spent, still within its life: kept for reuse detection
      { expiresAt: later(HOUR), revokedAt: null }, // the current one
    ]);
    const endedLongAgo = await newSession(userId, ago(40 * 86_400), [{ expiresAt: ago(10 * 86_400), revokedAt: ago(40 * 86_400) }]);
    const endedRecently = await newSession(userId, ago(60), [{ expiresAt: later(86_400), revokedAt: ago(60) }]);
    const idleButLive = await newSession(userId, null, [{ expiresAt: ago(1), revokedAt: null }]);

    const counts = await sweeperOf().sweep(NOW);
    expect(counts).toMatchObject({ refreshTokens: 3, sessions: 1 });
    const sessions = await db.session.findMany({ where: { userId }, include: { refreshTokens: true } });
    expect(sessions.map((session) => session.id).sort()).toEqual([live, endedRecently, idleButLive].sort());
    expect(sessions.find((session) => session.id === live)?.refreshTokens).toHaveLength(2);
    expect(sessions.find((session) => session.id === endedRecently)?.refreshTokens).toHaveLength(1);
    // A live session is never purged here: the idle sweep expires it first, with its audit event.
    expect(sessions.find((session) => session.id === idleButLive)?.revokedAt).toBeNull();
    expect(sessions.map((session) => session.id)).not.toContain(endedLongAgo);
  });

  it("purges expired SSO flows and tickets, consumed or not", async () => {
    const family = await db.family.create({ data: {} });
    const provider = await db.ssoProvider.create({
      data: {
        familyId: family.id,
        name: "idp",
        issuer: "https://idp.example",
        clientId: "client",
        clientSecret: "sealed",
        scopes: "openid email",
        enabled: true,
        allowAccountCreation: false,
        defaultRole: "member",
        adminClaimValues: [],
      },
    });
    const flow = (expiresAt: Date, consumedAt: Date | null) => ({
      providerId: provider.id,
      stateHash: randomUUID(),
      nonce: "n",
      codeVerifier: "v",
      callbackUrl: "https://hearth.example/cb",
      appRedirectUri: "hearth://oauth/callback",
      purpose: "login",
      expiresAt,
      consumedAt,
    });
    await db.ssoFlow.createMany({ data: [flow(ago(1), null), flow(ago(600), ago(700)), flow(later(600), null)] });
    const ticket = (expiresAt: Date, consumedAt: Date | null) => ({
      codeHash: randomUUID(),
      kind: "exchange",
      providerId: provider.id,
      claims: {},
      device: {},
      expiresAt,
      consumedAt,
    });
    await db.ssoTicket.createMany({ data: [ticket(ago(1), null), ticket(ago(60), ago(90)), ticket(later(60), ago(1)), ticket(later(60), null)] });

    expect(await sweeperOf().sweep(NOW)).toMatchObject({ ssoFlows: 2, ssoTickets: 2 });
    expect(await db.ssoFlow.count()).toBe(1);
    expect(await db.ssoTicket.count()).toBe(2);
  });

  it("deletes sign-up and SSO throttle windows once they have ended", async () => {
    await db.rateLimitCounter.deleteMany();
    await db.rateLimitCounter.createMany({
      data: [
        { bucket: "signup:203.0.113.7", windowStart: ago(2 * HOUR), hits: 3 },
        { bucket: "sso_authorize:203.0.113.7", windowStart: ago(HOUR + 60), hits: 1 },
        { bucket: "signup:203.0.113.7", windowStart: ago(HOUR - 60), hits: 2 },
      ],
    });
    expect((await sweeperOf().sweep(NOW)).throttleWindows).toBe(2);
    expect((await db.rateLimitCounter.findMany()).map((row) => row.hits)).toEqual([2]);
  });

  it("deletes a backlog in batches until none is left", async () => {
    await db.loginThrottle.deleteMany();
    await db.loginThrottle.createMany({
      data: Array.from({ length: 23 }, (_, i) => ({ key: `email:random-${i}@example.com`, failures: 1, lastFailureAt: ago(2 * HOUR), lockedUntil: null })),
    });
    expect((await sweeperOf(5).sweep(NOW)).loginThrottles).toBe(23);
    expect(await db.loginThrottle.count()).toBe(0);
  });

  it("runs on its interval once started, and stops", async () => {
    await db.loginThrottle.create({
      data: { key: "email:timer@example.com", failures: 1, lastFailureAt: new Date(Date.now() - 2 * HOUR * 1000), lockedUntil: null },
    });
    const sweeper = createIdentitySweeper(db, {
      intervalSeconds: 0.05,
      throttleForgetSeconds: HOUR,
      idempotencyRetentionMs: 86_400_000,
      throttleWindowSeconds: HOUR,
      log,
    });
    sweeper.start();
    try {
      await expect.poll(() => db.loginThrottle.count({ where: { key: "email:timer@example.com" } }), { timeout: 10_000 }).toBe(0);
    } finally {
      await sweeper.stop();
    }
  });
});
