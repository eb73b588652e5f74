import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { appLayout, type AppLayout } from "../../src/migrations/app-layout";
import { adminUrlFromEnv, withDatabaseName } from "../../src/migrations/database-url";
import { dropDatabase } from "../../src/migrations/ensure-database";

// Tests follow the rest of the suite: DATABASE_URL names the server when MIGRATIONS_ADMIN_URL does not.
export const ADMIN_URL = adminUrlFromEnv({ MIGRATIONS_ADMIN_URL: process.env.MIGRATIONS_ADMIN_URL || process.env.DATABASE_URL });
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
export const FIXTURE_V1 = path.join(fixtures, "schema.prisma");
export const FIXTURE_V2 = path.join(fixtures, "schema.v2.prisma");

export interface TestApp extends AppLayout {
  dir: string;
  /** Replaces prisma/schema.prisma with a fixture. */
  useSchema(fixture: string): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];

/** A temporary app directory with prisma/schema.prisma copied from a fixture. */
export async function makeApp(fixture = FIXTURE_V1): Promise<TestApp> {
  const dir = await mkdtemp(path.join(tmpdir(), "hearth-migrations-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const layout = appLayout(dir);
  await mkdir(path.dirname(layout.schemaPath), { recursive: true });
  const useSchema = (file: string) => copyFile(file, layout.schemaPath);
  await useSchema(fixture);
  return { dir, ...layout, useSchema };
}

/** URL of a database that does not exist yet; dropped by `cleanup()`. */
export function freshDatabaseUrl(): string {
  const name = `hearth_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  cleanups.push(() => dropDatabase(ADMIN_URL, name));
  return withDatabaseName(ADMIN_URL, name);
}

export async function cleanup(): Promise<void> {
  const pending = cleanups.splice(0);
  await Promise.allSettled(pending.map((fn) => fn()));
}

export async function query<R extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
