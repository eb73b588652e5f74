import { describe, expect, it } from "vitest";
import { ticketClaimsOf } from "../src/identity/sso/ticket-claims";

const provider = { roleClaim: "groups" };
const claims = (extra: Record<string, unknown>) => ({ sub: "alice", ...extra });

describe("the claims a sign-in ticket keeps", () => {
  it("keeps text claims of a sensible length, lowercasing the email", () => {
    expect(
      ticketClaimsOf(claims({ email: "Alice@Example.test", email_verified: true, given_name: "Alice", family_name: "Idp", groups: ["admins"] }), provider),
    ).toEqual({
      sub: "alice",
      email: "alice@example.test",
      emailVerified: true,
      firstName: "Alice",
      lastName: "Idp",
      roleClaim: ["admins"],
    });
  });

  it("drops what is too long to be real, and what is not text", () => {
    const kept = ticketClaimsOf(claims({ email: `${"a".repeat(250)}@x.test`, given_name: "g".repeat(101), family_name: 42, email_verified: "true" }), provider);
    expect(kept).toMatchObject({ email: null, firstName: null, lastName: null, emailVerified: false, roleClaim: null });
  });

  it("keeps only the role values that could match an admin value", () => {
    const long = "x".repeat(201);
    expect(ticketClaimsOf(claims({ groups: ["admins", long, 7, { nested: true }] }), provider).roleClaim).toEqual(["admins"]);
    expect(ticketClaimsOf(claims({ groups: long }), provider).roleClaim).toBeNull();
    expect(ticketClaimsOf(claims({ groups: "admins" }), provider).roleClaim).toBe("admins");
    expect(ticketClaimsOf(claims({ groups: ["admins"] }), { roleClaim: null }).roleClaim).toBeNull();
  });

  it("fails the sign-in on a role claim with more values than any provider sends, rather than cut it", () => {
    expect(() => ticketClaimsOf(claims({ groups: Array.from({ length: 1001 }, (_, i) => `g${i}`) }), provider)).toThrow(/more than 1000 values/);
  });
});
