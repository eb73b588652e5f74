import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../src/prisma-errors";

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
