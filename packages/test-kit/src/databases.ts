import { randomBytes } from "node:crypto";
import pg from "pg";

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface FreshDatabases<N extends string> {
  urls: Record<N, string>;
  /** Drops every database, closing their sessions first. */
  drop: () => Promise<void>;
}

/**
 * New empty databases with names unique to this call, so test runs and test files never see
 * each other's data, even against a shared server.
 */
export async function createFreshDatabases<N extends string>(adminUrl: string, names: readonly N[]): Promise<FreshDatabases<N>> {
  const run = `hearth_t${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const created: string[] = [];
  try {
    for (const name of names) {
      const database = `${run}_${name}`;
      await admin.query(`CREATE DATABASE ${quote(database)}`);
      created.push(database);
    }
  } finally {
    await admin.end();
  }
  const urls = Object.fromEntries(names.map((name, i) => [name, withDatabaseName(adminUrl, created[i] ?? "")])) as Record<N, string>;
  return {
    urls,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        for (const database of created) await client.query(`DROP DATABASE IF EXISTS ${quote(database)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
