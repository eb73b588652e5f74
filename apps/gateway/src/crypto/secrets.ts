import { createHash, randomBytes } from "node:crypto";

/** High-entropy secrets (API keys, refresh tokens) are looked up by SHA-256: a slow hash buys nothing for 256 random bits. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function randomSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}
