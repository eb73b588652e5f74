import { SignJWT, decodeJwt } from "jose";

// Bearer tokens an attacker can make from a token they hold: every one must be refused.

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function partsOf(token: string): [string, string, string] {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) throw new Error(`not a signed JWT: ${token}`);
  return [header, payload, signature];
}

/** The token with one bit of its signature's first byte flipped (not the last base64 character: it carries padding bits). */
export function withFlippedSignatureBit(token: string): string {
  const [header, payload, signature] = partsOf(token);
  const bytes = Buffer.from(signature, "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return `${header}.${payload}.${bytes.toString("base64url")}`;
}

/** The token's claims changed (`changes` merged in), re-encoded under the old header and signature. */
export function withForeignClaims(token: string, changes: Record<string, unknown>): string {
  const [header, , signature] = partsOf(token);
  return `${header}.${encode({ ...decodeJwt(token), ...changes })}.${signature}`;
}

/** The token's claims under `alg: none`, without a signature. */
export function unsigned(token: string): string {
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(decodeJwt(token))}.`;
}

/** The gateway's signing key, as the system under test was configured with it. */
export interface SigningKey {
  kid: string;
  secret: string;
}

/**
 * The token's claims re-signed with the gateway's real key and the given expiry: a token the
 * gateway issued itself, but for that lifetime (a past `exp` makes it expired).
 */
export async function resigned(token: string, key: SigningKey, times: { issuedAt: number; expiresAt: number }): Promise<string> {
  const { iat: _iat, exp: _exp, ...claims } = decodeJwt(token);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: key.kid })
    .setIssuedAt(times.issuedAt)
    .setExpirationTime(times.expiresAt)
    .sign(new TextEncoder().encode(key.secret));
}
