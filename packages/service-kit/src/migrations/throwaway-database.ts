import { randomBytes } from "node:crypto";
import pg from "pg";
import { quoteIdentifier, withDatabaseName } from "./database-url";
import { dropDatabase } from "./ensure-database";

/**
 * Runs `fn` with the URLs of `count` new empty databases (unique names, created on the server
 * of `adminUrl`), dropped afterwards whether `fn` succeeds or not.
 */
export async function withThrowawayDatabases<T>(adminUrl: string, count: number, prefix: string, fn: (urls: string[]) => Promise<T>): Promise<T> {
  const tag = `${prefix}_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const names = Array.from({ length: count }, (_, i) => `${tag}_${i}`);
  const created: string[] = [];
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    try {
      for (const name of names) {
        await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
        created.push(name);
      }
    } finally {
      await admin.end().catch(() => {});
    }
    return await fn(names.map((name) => withDatabaseName(adminUrl, name)));
  } finally {
    const errors: unknown[] = [];
    for (const name of created) await dropDatabase(adminUrl, name).catch((error: unknown) => errors.push(error));
    if (errors.length > 0) console.error(`hearth-migrations: could not drop throwaway database(s): ${errors.map(String).join("; ")}`);
  }
}
