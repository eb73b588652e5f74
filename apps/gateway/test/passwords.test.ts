import argon2 from "argon2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createPasswordHasher } from "../src/identity/auth/passwords";

const hasher = createPasswordHasher();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("password hashing", () => {
  it("hashes with argon2id at the configured cost, salted (two hashes of one password differ)", async () => {
    const first = await hasher.hash("Correct-horse-9");
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.hash("Correct-horse-9")).not.toBe(first);
    expect(first).not.toContain("Correct-horse-9");
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hasher.hash("Correct-horse-9");
    expect(await hasher.verify(hash, "Correct-horse-9")).toBe(true);
    expect(await hasher.verify(hash, "correct-horse-9")).toBe(false);
    expect(await hasher.verify(hash, "")).toBe(false);
  });

  it("answers false rather than throwing for a malformed stored hash", async () => {
    await expect(hasher.verify("not-a-hash", "Correct-horse-9")).resolves.toBe(false);
  });

  it("still runs a real argon2id verification for an unknown user (no hash), so both failures take as long", async () => {
    const verify = vi.spyOn(argon2, "verify");
    expect(await hasher.verify(null, "Correct-horse-9")).toBe(false);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]?.[0]).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("answers false for an unknown user whatever the password, even the dummy hash's own", async () => {
    for (const password of ["Correct-horse-9", "not-a-real-password"]) expect(await hasher.verify(null, password), password).toBe(false);
  });
});
