import { NobleCryptoPlugin, ScureBase32Plugin, TOTP, generateSecret, generateURI } from "otplib";

const PERIOD_SECONDS = 30;
const ISSUER = "Hearth";
// The TOTP class (unlike the functional API) answers the matched time step, for replay refusal.
const checker = new TOTP({ period: PERIOD_SECONDS, crypto: new NobleCryptoPlugin(), base32: new ScureBase32Plugin() });

/** RFC 6238 TOTP as authenticator apps expect it: SHA-1, 6 digits, 30 s steps. */
export const totp = {
  newSecret: (): string => generateSecret({ length: 20 }),

  provisioningUri: (secret: string, email: string): string => generateURI({ issuer: ISSUER, label: email, secret, period: PERIOD_SECONDS }),

  /**
   * The time step the code belongs to, or null. One step of clock drift either way is
   * accepted; a step at or before `afterTimeStep` (already used) is refused, so a code
   * observed once cannot be replayed.
   */
  async verify(secret: string, code: string, afterTimeStep: number | null, now = new Date()): Promise<number | null> {
    if (!/^\d{6}$/.test(code)) return null;
    const result = await checker.verify(code, {
      secret,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: PERIOD_SECONDS,
      ...(afterTimeStep === null ? {} : { afterTimeStep }),
    });
    return result.valid ? result.timeStep : null;
  },
};
