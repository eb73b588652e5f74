import { randomBytes } from "node:crypto";
import { Prisma } from "../generated/prisma/client";

/**
 * The first 24 hex digits of a UUIDv7 (RFC 9562): the time in milliseconds, then random bits.
 * Rows a statement inserts append their ordinal, so their ids rise as the ones Prisma makes do.
 */
function uuidV7Prefix(): string {
  const time = Date.now().toString(16).padStart(12, "0");
  const random = randomBytes(5).toString("hex");
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(0, 3)}-${variant}${random.slice(4, 7)}-${random.slice(7, 10)}0`;
}

/** An id per row of one statement: `ordinal` is a positive row number (below 2^32). */
export function risingIds(): (ordinal: Prisma.Sql) => Prisma.Sql {
  const prefix = uuidV7Prefix();
  return (ordinal) => Prisma.sql`(${prefix} || lpad(to_hex(${ordinal}), 8, '0'))::uuid`;
}
