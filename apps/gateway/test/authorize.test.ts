import { describe, expect, it } from "vitest";
import { AppError, routes, type Actor, type ErrorCode } from "@hearth/contracts";
import { authorize } from "../src/identity/auth/authenticator";

const actor = (authMethod: Actor["authMethod"], scope: "read" | "read_write", role: Actor["role"]): Actor => ({
  userId: "01900000-0000-7000-8000-000000000001",
  familyId: "01900000-0000-7000-8000-000000000002",
  role,
  scopes: [scope],
  authMethod,
});

/** What authorize answers: "ok", or the code of the AppError it throws. */
function outcome(who: Actor, procedure: keyof typeof routes): "ok" | ErrorCode {
  try {
    authorize(who, routes[procedure].access);
    return "ok";
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

// Routes of each kind of access: any/read, any/read_write, bearer, bearer/read_write, bearer/read/admin.
const PROCEDURES = ["tags.list", "tags.create", "apiKeys.list", "apiKeys.create", "auditLogs.list"] as const;

describe("authorize: credential kind, scope and role", () => {
  it.each([
    ["API key, read, admin", actor("api_key", "read", "admin"), ["ok", "insufficient_scope", "forbidden", "forbidden", "forbidden"]],
    ["API key, read_write, admin", actor("api_key", "read_write", "admin"), ["ok", "ok", "forbidden", "forbidden", "forbidden"]],
    ["bearer, read_write, admin", actor("bearer", "read_write", "admin"), ["ok", "ok", "ok", "ok", "ok"]],
    ["bearer, read_write, member", actor("bearer", "read_write", "member"), ["ok", "ok", "ok", "ok", "forbidden"]],
    ["bearer, read, admin", actor("bearer", "read", "admin"), ["ok", "insufficient_scope", "ok", "insufficient_scope", "ok"]],
    ["bearer, read, member", actor("bearer", "read", "member"), ["ok", "insufficient_scope", "ok", "insufficient_scope", "forbidden"]],
  ] as const)("%s", (_, who, expected) => {
    expect(PROCEDURES.map((procedure) => outcome(who, procedure))).toEqual(expected);
  });

  it("says why: a bearer token is required, or the admin role", () => {
    expect(() => authorize(actor("api_key", "read_write", "admin"), routes["apiKeys.list"].access)).toThrow("This endpoint requires a bearer token");
    expect(() => authorize(actor("bearer", "read_write", "member"), routes["auditLogs.list"].access)).toThrow("This action requires the admin role");
    expect(() => authorize(actor("api_key", "read", "admin"), routes["tags.create"].access)).toThrow("This action requires the 'read_write' scope");
  });
});
