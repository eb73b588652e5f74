import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { keyRing } from "./key-ring";
import { createAccessTokens } from "../src/identity/auth/access-tokens";
import { createAuthenticator } from "../src/identity/auth/authenticator";
import { createCredentialCache } from "../src/identity/auth/credential-cache";
import type { ApiKeyActorRow } from "../src/identity/api-keys/api-key-repository";
import type { SessionState } from "../src/identity/sessions/session-repository";
import { createSessionExpiry } from "../src/identity/sessions/session-expiry";
import { createLogger } from "@hearth/service-kit";
import type { IdentityDb } from "../src/db";

const tokens = createAccessTokens(keyRing(randomBytes(32).toString("hex")), 3600);
// Header parsing and signature checks, in isolation: the only database read of a bearer
// request is its session's state, answered here from this set (the system tests use the real one).
const endedSessions = new Set<string>();
const sessionsOnly = {
  // The session-state query's parameters are (session id, user id).
  $queryRaw: async (_sql: TemplateStringsArray, sessionId: string) => [
    {
      revoked_at: endedSessions.has(sessionId) ? new Date() : null,
      last_active_at: new Date(),
      suspended_at: null,
      family_id: subject.familyId,
      role: subject.role,
    },
  ],
} as unknown as IdentityDb;
// Sessions here are always fresh, so expiry never touches the (absent) database.
const expiry = createSessionExpiry(sessionsOnly, { idleSeconds: 3600, onEventsWritten: () => undefined, log: createLogger("test", "silent") });
const request = { ipAddress: null, userAgent: null, requestId: "test", baseUrl: "http://localhost" };
// Caches that are never live (no change feed): every request reads the (fake) database.
const caches = {
  apiKeys: createCredentialCache<ApiKeyActorRow>({ maxAgeMs: 1, maxEntries: 1 }),
  sessions: createCredentialCache<SessionState>({ maxAgeMs: 1, maxEntries: 1 }),
};
const authenticator = createAuthenticator(sessionsOnly, tokens, expiry, caches);
const authenticate = (credentials: Parameters<typeof authenticator.authenticate>[0]) => authenticator.authenticate(credentials, request);
const subject = { userId: randomUUID(), familyId: randomUUID(), role: "admin" as const, scope: "read" as const, sessionId: randomUUID() };

async function refusal(authorization: string | undefined): Promise<string> {
  const error = await authenticate({ apiKey: undefined, authorization }).then(
    () => {
      throw new Error(`"${authorization}" was accepted`);
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("unauthorized");
  return (error as AppError).message;
}

describe("authenticate: the Authorization header", () => {
  it("accepts 'Bearer <token>' in any case of the scheme", async () => {
    const token = await tokens.issue(subject);
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`]) {
      await expect(authenticate({ apiKey: undefined, authorization })).resolves.toMatchObject({
        userId: subject.userId,
        authMethod: "bearer",
        scopes: ["read"],
      });
    }
  });

  it("answers unauthorized for no credential, another scheme, or a malformed header", async () => {
    const token = await tokens.issue(subject);
    expect(await refusal(undefined)).toMatch(/X-Api-Key/);
    for (const authorization of [`Basic ${token}`, "Bearer", `Bearer ${token} extra`, token])
      expect(await refusal(authorization)).toMatch(/Provide an API key/);
  });

  it("answers unauthorized for an expired or foreign token", async () => {
    const expired = await tokens.issue(subject, new Date(Date.now() - 2 * 3600 * 1000));
    const foreign = await createAccessTokens(keyRing(randomBytes(32).toString("hex")), 3600).issue(subject);
    for (const token of [expired, foreign]) expect(await refusal(`Bearer ${token}`)).toBe("Access token is invalid or expired");
  });

  it("answers unauthorized for a valid token whose session has ended", async () => {
    const ended = { ...subject, sessionId: randomUUID() };
    const token = await tokens.issue(ended);
    endedSessions.add(ended.sessionId);
    expect(await refusal(`Bearer ${token}`)).toBe("The session of this access token has ended");
  });
});

// Sure's base_controller_test "should prioritize OAuth over API key when both are provided":
// Authorization is weighed first, so a valid bearer token wins over a bad X-Api-Key.
describe("authenticate: a bearer token beside an X-Api-Key", () => {
  it("lets a valid bearer token win over a bad API key", async () => {
    const token = await tokens.issue(subject);
    await expect(authenticate({ apiKey: "hk_not-a-real-key", authorization: `Bearer ${token}` })).resolves.toMatchObject({
      userId: subject.userId,
      authMethod: "bearer",
    });
  });

  it("answers an invalid bearer token 401 whatever the API key (Sure renders 401 before it tries the key)", async () => {
    const foreign = await createAccessTokens(keyRing(randomBytes(32).toString("hex")), 3600).issue(subject);
    const error = await authenticate({ apiKey: "hk_any-key", authorization: `Bearer ${foreign}` }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe("Access token is invalid or expired");
  });
});
