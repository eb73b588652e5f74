import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabases, testPostgresAdminUrl } from "../src";
import { forgetTemplate, migratedTemplate } from "../src/template-databases";

const migration = (table: string) => `CREATE TABLE "${table}" ("id" INTEGER NOT NULL, CONSTRAINT "${table}_pkey" PRIMARY KEY ("id"));\n`;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

const databaseExists = async (name: string) => (await query(testPostgresAdminUrl(), "SELECT 1 FROM pg_database WHERE datname = $1", [name])).length === 1;

describe("databases copied from a migrated template", () => {
  // A key of this run's own, so templates of other runs on the same server are never touched.
  const key = `tkt${randomBytes(3).toString("hex")}`;
  let dir: string;
  const made: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "hearth-template-test-"));
    await mkdir(path.join(dir, "20260101000000_init"));
    await writeFile(path.join(dir, "20260101000000_init", "migration.sql"), migration("first"));
  });
  afterAll(async () => {
    const templates = await query<{ datname: string }>(testPostgresAdminUrl(), "SELECT datname FROM pg_database WHERE datname LIKE $1", [`hearth_tpl_${key}%`]);
    for (const { datname } of templates) await query(testPostgresAdminUrl(), `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await rm(dir, { recursive: true, force: true });
    expect(made.length).toBeGreaterThan(0);
  });

  it("gives fresh databases with every migration applied and recorded, built once however many ask at once", async () => {
    const [a, b] = await Promise.all([
      createMigratedDatabases(testPostgresAdminUrl(), { [key]: dir } as Record<string, string>),
      createMigratedDatabases(testPostgresAdminUrl(), { [key]: dir } as Record<string, string>),
    ]);
    try {
      for (const databases of [a, b]) {
        const url = Object.values(databases!.urls)[0] as string;
        expect(await query(url, 'SELECT count(*)::int AS n FROM "first"')).toEqual([{ n: 0 }]);
        expect(await query(url, "SELECT migration_name FROM _prisma_migrations")).toEqual([{ migration_name: "20260101000000_init" }]);
        await query(url, 'INSERT INTO "first" VALUES (1)'); // each copy is its own
      }
      const templates = await query<{ datname: string }>(testPostgresAdminUrl(), "SELECT datname FROM pg_database WHERE datname LIKE $1", [
        `hearth_tpl_${key}%`,
      ]);
      expect(templates).toHaveLength(1);
      made.push(templates[0]!.datname);
    } finally {
      await a?.drop();
      await b?.drop();
    }
  });

  it("builds another template once a migration is added, and drops the old one", async () => {
    const old = await migratedTemplate(testPostgresAdminUrl(), key, dir);
    await cp(path.join(dir, "20260101000000_init"), path.join(dir, "20260102000000_second"), { recursive: true });
    await writeFile(path.join(dir, "20260102000000_second", "migration.sql"), migration("second"));
    forgetTemplate(testPostgresAdminUrl(), dir); // a new test process, as after an edit

    const databases = await createMigratedDatabases(testPostgresAdminUrl(), { [key]: dir } as Record<string, string>);
    try {
      const url = Object.values(databases.urls)[0] as string;
      expect(await query(url, 'SELECT count(*)::int AS n FROM "second"')).toEqual([{ n: 0 }]);
      const current = await migratedTemplate(testPostgresAdminUrl(), key, dir);
      expect(current).not.toBe(old);
      expect(await databaseExists(old)).toBe(false);
      made.push(current);
    } finally {
      await databases.drop();
    }
  });
});
