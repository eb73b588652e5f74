import { randomBytes } from "node:crypto";
import pg from "pg";
import { quote, withDatabaseName } from "./database-names";
import { forgetTemplate, migratedTemplate } from "./template-databases";

export interface FreshDatabases<N extends string> {
  urls: Record<N, string>;
  /** Drops every database, closing their sessions first. */
  drop: () => Promise<void>;
}

/**
 * New empty databases with names unique to this call, so test runs and test files never see
 * each other's data, even against a shared server.
 */
export function createFreshDatabases<N extends string>(adminUrl: string, names: readonly N[]): Promise<FreshDatabases<N>> {
  return createDatabases(adminUrl, names, () => null);
}

/**
 * New databases with every migration of their service applied, as `createFreshDatabases` names
 * them: each a copy of a template migrated once per server and set of migrations (see
 * template-databases.ts), so a test file does not apply every migration again.
 */
export async function createMigratedDatabases<N extends string>(adminUrl: string, migrationsDirs: Readonly<Record<N, string>>): Promise<FreshDatabases<N>> {
  const names = Object.keys(migrationsDirs) as N[];
  const templates = await Promise.all(names.map((name) => migratedTemplate(adminUrl, name, migrationsDirs[name])));
  try {
    return await createDatabases(adminUrl, names, (i) => templates[i] ?? null);
  } catch (error) {
    // A run on other migrations dropped a template this process had found: look again, once.
    if ((error as { code?: string }).code !== UNDEFINED_DATABASE) throw error;
    for (const name of names) forgetTemplate(adminUrl, migrationsDirs[name]);
    const again = await Promise.all(names.map((name) => migratedTemplate(adminUrl, name, migrationsDirs[name])));
    return createDatabases(adminUrl, names, (i) => again[i] ?? null);
  }
}

const UNDEFINED_DATABASE = "3D000";

async function createDatabases<N extends string>(adminUrl: string, names: readonly N[], templateOf: (i: number) => string | null): Promise<FreshDatabases<N>> {
  const run = `hearth_t${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const created: string[] = [];
  try {
    for (const [i, name] of names.entries()) {
      const database = `${run}_${name}`;
      const template = templateOf(i);
      await admin.query(`CREATE DATABASE ${quote(database)}${template ? ` TEMPLATE ${quote(template)}` : ""}`);
      created.push(database);
    }
  } catch (error) {
    for (const database of created) await admin.query(`DROP DATABASE IF EXISTS ${quote(database)} WITH (FORCE)`).catch(() => {});
    throw error;
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
