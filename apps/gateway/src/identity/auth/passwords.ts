import argon2 from "argon2";

/** The password hash of an account created through SSO: no password verifies against it until one is set. */
export const NO_PASSWORD = "!sso-only";

/** argon2id; the memory cost is configurable so the login benchmark can tune it (issue: one login < 100 ms). */
export function createPasswordHasher(memoryCostKiB = 19_456, timeCost = 2) {
  const options = { type: argon2.argon2id, memoryCost: memoryCostKiB, timeCost, parallelism: 1 } as const;
  // Verifying against this when the e-mail is unknown keeps both failures equally slow (no account enumeration).
  const dummy = argon2.hash("not-a-real-password", options);
  return {
    hash: (password: string) => argon2.hash(password, options),
    /** False for an unknown user (null hash) or an SSO-only one whatever the password, after the same work as a real check. */
    async verify(hash: string | null, password: string): Promise<boolean> {
      const usable = hash !== null && hash !== NO_PASSWORD;
      try {
        const matches = await argon2.verify(usable ? hash : await dummy, password);
        return usable && matches;
      } catch {
        return false;
      }
    },
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
