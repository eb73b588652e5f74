import pg from "pg";

/**
 * Session advisory lock key serialising migration runs on one database (advisory locks are
 * per database). Distinct from the key Prisma's engine uses internally (72707369).
 */
export const MIGRATIONS_LOCK_KEY = "4865617274680001";

const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Runs `fn` with a connection holding the migrations lock: a second process blocks here until
 * the first is done (or `timeoutMs` passes). The lock goes with the session, so a crashed
 * holder never leaves it behind.
 */
export async function withMigrationsLock<T>(databaseUrl: string, timeoutMs: number, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {}); // reported by the next query instead of crashing the process
  await client.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    try {
      await client.query("SELECT pg_advisory_lock($1::bigint)", [MIGRATIONS_LOCK_KEY]);
    } catch (error) {
      if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) {
        throw new Error(`Timed out after ${timeoutMs} ms waiting for another process to finish applying migrations`, { cause: error });
      }
      throw error;
    }
    await client.query("SET lock_timeout = 0");
    try {
      return await fn(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1::bigint)", [MIGRATIONS_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}
