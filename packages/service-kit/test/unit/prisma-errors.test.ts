import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable, isUniqueViolation } from "../../src/prisma-errors";

describe("isUniqueViolation", () => {
  it("recognises Prisma's P2002, PostgreSQL's 23505 and a raw query's 23505 (P2010)", () => {
    expect(isUniqueViolation({ code: "P2002" })).toBe(true);
    expect(isUniqueViolation({ code: "23505" })).toBe(true);
    expect(isUniqueViolation({ code: "P2010", meta: { code: "23505", message: "duplicate key value" } })).toBe(true);
    // What @prisma/adapter-pg reports for a raw INSERT hitting a unique index (seen in ledger.import).
    const adapterError = {
      name: "DriverAdapterError",
      cause: { originalCode: "23505", kind: "UniqueConstraintViolation", constraint: { index: "entries_pkey" } },
    };
    expect(isUniqueViolation({ code: "P2010", meta: { driverAdapterError: adapterError } })).toBe(true);
  });

  it("is false for other failures", () => {
    expect(isUniqueViolation({ code: "P2010", meta: { code: "23503" } })).toBe(false);
    expect(isUniqueViolation({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "23503" } } } })).toBe(false);
    expect(isUniqueViolation({ code: "P2010" })).toBe(false);
    expect(isUniqueViolation(new Error("boom"))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

describe("isDatabaseUnavailable", () => {
  // What a raw query answers when the pool (made by createPrismaClient) cannot connect: the health suite saw a 500 for it.
  it("recognises the driver adapter's DatabaseNotReachable and its kin", () => {
    const refused = {
      code: "P2010",
      meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 1 } } },
    };
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2010", meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } } })).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2010", meta: { driverAdapterError: { cause: { kind: "UniqueConstraintViolation" } } } })).toBe(false);
  });

  // What the reliability suite's PostgreSQL restart answered as 500s: a raw query refused while the
  // server shuts down (SQLSTATE 57P03 inside Prisma's P2010), and the message of an ended connection.
  it("recognises a raw query's own code of a server shutting down, restarting or ending connections", () => {
    expect(isDatabaseUnavailable({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "57P03", kind: "postgres" } } } })).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2010", meta: { code: "57P01" } })).toBe(true);
    expect(isDatabaseUnavailable(new Error("the database system is shutting down"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable({ code: "P2010", meta: { driverAdapterError: { cause: { originalCode: "23505" } } } })).toBe(false);
    // Not only a raw query's: any Prisma error carrying the adapter's code.
    expect(isDatabaseUnavailable({ code: "P2037", meta: { driverAdapterError: { cause: { originalCode: "57P01" } } } })).toBe(true);
    expect(isDatabaseUnavailable(new Error("the database system is not yet accepting connections"))).toBe(true);
    // pg's own words for a pooled client whose server went away mid-transaction (finance, in the same restart).
    expect(isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
  });
});
