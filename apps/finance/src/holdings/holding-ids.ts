// A holding (an account's position in a security on one day) is not a stored row: its id encodes
// the position and the day, so it stays the same whatever syncs rewrite. The position key is a
// UUIDv8 (RFC 9562: custom layout) from a hash of (account, security, currency) with its last
// 32 bits zero; the holding's id puts the day number (days since 1970-01-01) in those bits.
import { createHash } from "node:crypto";

const DAY_DIGITS = 8;

/** The position's key: the same for the same account, security and currency, on every sync. */
export function positionKeyOf(accountId: string, securityId: string, currency: string): string {
  const hex = createHash("sha256").update(`${accountId}:${securityId}:${currency}`).digest("hex");
  const version = `8${hex.slice(13, 16)}`;
  const variant = `${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}-${variant}-${hex.slice(20, 24)}${"0".repeat(DAY_DIGITS)}`;
}

/** The id of a position's holding on a day. */
export function holdingIdOf(positionKey: string, day: number): string {
  return `${positionKey.slice(0, -DAY_DIGITS)}${day.toString(16).padStart(DAY_DIGITS, "0")}`;
}

/** The position key and day a holding id names; null when it cannot be one (an id of another kind). */
export function parseHoldingId(id: string): { positionKey: string; day: number } | null {
  const lower = id.toLowerCase();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(lower)) return null;
  const day = parseInt(lower.slice(-DAY_DIGITS), 16);
  return { positionKey: `${lower.slice(0, -DAY_DIGITS)}${"0".repeat(DAY_DIGITS)}`, day };
}
