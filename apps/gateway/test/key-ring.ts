import type { SigningKeyRing } from "../src/identity/auth/access-tokens";

/** A key ring of one active key, as a gateway without rotation has. */
export function keyRing(secret: string, kid = "primary"): SigningKeyRing {
  return { active: { kid, secret }, previous: [] };
}
