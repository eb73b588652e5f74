import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * Secrets a service must read back (the gateway's TOTP seeds and SSO client secrets, finance's
 * bank-bridge credentials) are sealed with AES-256-GCM under a key derived with HKDF from the
 * service's master secret (the gateway's SECRETS_ENCRYPTION_KEY); low-entropy one-time codes
 * (MFA backup codes) are stored as a keyed HMAC, so a stolen database alone cannot test guesses.
 * `purpose` separates the keys of different uses of one master secret; without it the keys are
 * the gateway's as they always were (what it sealed stays readable).
 */
export function createSecretBox(masterKey: string, purpose?: string) {
  const scope = purpose ? `${purpose}:` : "";
  const derive = (label: string) => Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), `hearth:${scope}${label}`, 32));
  const sealKey = derive("seal");
  const macKey = derive("fingerprint");

  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", sealKey, iv);
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), sealed.toString("base64url")].join(".");
    },
    /** Throws when the value was not sealed under this key or was altered. */
    open(value: string): string {
      const [version, iv, tag, sealed] = value.split(".");
      if (version !== VERSION || !iv || !tag || sealed === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", sealKey, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
    },
    fingerprint(value: string): string {
      return createHmac("sha256", macKey).update(value).digest("hex");
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
