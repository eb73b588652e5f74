import { randomBytes, randomUUID } from "node:crypto";
import { SignJWT, decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { keyRing } from "./key-ring";
import { createAccessTokens, type AccessTokenSubject } from "../src/identity/auth/access-tokens";

const SECRET = randomBytes(32).toString("hex");
const TTL = 3600;
const tokens = createAccessTokens(keyRing(SECRET), TTL);
const subject: AccessTokenSubject = { userId: randomUUID(), familyId: randomUUID(), role: "member", scope: "read_write", sessionId: randomUUID() };

/** A token with the right key and claims except for the given changes. */
function craft(claims: Record<string, unknown>, options: { issuer?: string; audience?: string; secret?: string; kid?: string | null } = {}) {
  return new SignJWT({ fam: subject.familyId, sid: subject.sessionId, role: subject.role, scope: subject.scope, ...claims })
    .setProtectedHeader(options.kid === null ? { alg: "HS256" } : { alg: "HS256", kid: options.kid ?? "primary" })
    .setSubject(subject.userId)
    .setIssuer(options.issuer ?? "hearth")
    .setAudience(options.audience ?? "hearth-api")
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

describe("access tokens", () => {
  it("verifies what it issued back to the acting user, family, role and scope of a bearer token", async () => {
    const token = await tokens.issue(subject);
    expect(await tokens.verify(token)).toEqual({
      userId: subject.userId,
      familyId: subject.familyId,
      role: "member",
      scopes: ["read_write"],
      authMethod: "bearer",
      sessionId: subject.sessionId,
    });
  });

  it("issues HS256 JWTs for issuer hearth, audience hearth-api, expiring after the TTL, each with its own id", async () => {
    const now = new Date("2026-03-01T12:00:00Z");
    const token = await tokens.issue(subject, now);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "HS256", typ: "JWT", kid: "primary" });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: "hearth", aud: "hearth-api", sub: subject.userId, iat: now.getTime() / 1000, exp: now.getTime() / 1000 + TTL });
    expect(decodeJwt(await tokens.issue(subject, now)).jti).not.toBe(claims.jti);
  });

  it("refuses a token once its TTL has passed, and accepts it until then", async () => {
    expect(await tokens.verify(await tokens.issue(subject, new Date(Date.now() - (TTL + 5) * 1000)))).toBeNull();
    expect(await tokens.verify(await tokens.issue(subject, new Date(Date.now() - (TTL - 30) * 1000)))).not.toBeNull();
  });

  it("refuses a token signed with another secret", async () => {
    const other = createAccessTokens(keyRing(randomBytes(32).toString("hex")), TTL);
    expect(await tokens.verify(await other.issue(subject))).toBeNull();
  });

  it("refuses a token for another audience or from another issuer, but accepts the same token crafted right", async () => {
    expect(await tokens.verify(await craft({}))).not.toBeNull();
    expect(await tokens.verify(await craft({}, { audience: "hearth-internal" }))).toBeNull();
    expect(await tokens.verify(await craft({}, { issuer: "someone-else" }))).toBeNull();
  });

  it("refuses a correctly signed token whose claims are not a valid actor", async () => {
    expect(await tokens.verify(await craft({ scope: "admin" }))).toBeNull();
    expect(await tokens.verify(await craft({ role: "owner" }))).toBeNull();
    expect(await tokens.verify(await craft({ fam: "not-a-uuid" }))).toBeNull();
  });

  it("refuses a tampered payload, an unsigned token and garbage", async () => {
    const [header, payload, signature] = (await tokens.issue(subject)).split(".") as [string, string, string];
    const elevated = Buffer.from(JSON.stringify({ ...decodeJwt(`${header}.${payload}.${signature}`), role: "admin" })).toString("base64url");
    expect(await tokens.verify(`${header}.${elevated}.${signature}`)).toBeNull();
    const none = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    expect(await tokens.verify(`${none}.${payload}.`)).toBeNull();
    expect(await tokens.verify("not.a.jwt")).toBeNull();
    expect(await tokens.verify("")).toBeNull();
  });

  describe("key rotation", () => {
    const oldSecret = randomBytes(32).toString("hex");
    const newSecret = randomBytes(32).toString("hex");
    const beforeRotation = createAccessTokens(keyRing(oldSecret, "2026-01"), TTL);
    const afterRotation = createAccessTokens({ active: { kid: "2026-11", secret: newSecret }, previous: [{ kid: "2026-01", secret: oldSecret }] }, TTL);
    const oldKeyRemoved = createAccessTokens(keyRing(newSecret, "2026-11"), TTL);

    it("signs with the active key and keeps verifying tokens of a previous key until it is removed", async () => {
      const oldToken = await beforeRotation.issue(subject);
      const newToken = await afterRotation.issue(subject);
      expect(decodeProtectedHeader(newToken).kid).toBe("2026-11");
      expect(await afterRotation.verify(oldToken)).not.toBeNull();
      expect(await afterRotation.verify(newToken)).not.toBeNull();
      expect(await oldKeyRemoved.verify(newToken)).not.toBeNull();
      expect(await oldKeyRemoved.verify(oldToken)).toBeNull();
    });

    it("refuses a token without a kid, with an unknown kid, or whose kid names another key than signed it", async () => {
      expect(await tokens.verify(await craft({}, { kid: null }))).toBeNull();
      expect(await tokens.verify(await craft({}, { kid: "unknown" }))).toBeNull();
      expect(await afterRotation.verify(await craft({}, { kid: "2026-11", secret: oldSecret }))).toBeNull();
    });
  });
});
