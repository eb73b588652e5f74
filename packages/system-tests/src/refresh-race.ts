import { createHash } from "node:crypto";
import { expect } from "vitest";
import { createIdentityDb } from "@hearth/gateway/db";
import type { ApiResponse } from "./api-client";
import { eventually } from "./eventually";

/**
 * `count` refreshes of one token made certain to race: the token's row is held (from a connection
 * of our own) until all of them have read it as live and wait to spend it; then it is let go, one
 * spends it and the others lose. Answers every refresh's response.
 */
export async function racingRefreshes(databaseUrl: string, refreshToken: string, count: number, refresh: () => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const holder = createIdentityDb(databaseUrl);
  try {
    // Answered wrapped: a bare promise would be awaited inside the transaction, which holds the lock.
    const { racing } = await holder.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM refresh_tokens WHERE token_hash = ${createHash("sha256").update(refreshToken).digest("hex")} FOR UPDATE`;
        const racing = Promise.all(Array.from({ length: count }, refresh));
        await eventually(async () => {
          await tx.$executeRaw`SELECT pg_stat_clear_snapshot()`; // else a transaction sees its first reading again
          const [waiting] = await tx.$queryRaw<{ count: number }[]>`
            SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          expect(waiting?.count).toBe(count);
        });
        return { racing };
      },
      { timeout: 30_000 },
    );
    return await racing;
  } finally {
    await holder.$disconnect();
  }
}
