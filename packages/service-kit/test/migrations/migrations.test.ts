import { createHash } from "node:crypto";
import { appendFile, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createMigration, ensureDatabase } from "../../src/migrations/index";
import { cleanup, FIXTURE_V2, freshDatabaseUrl, makeApp, query, type TestApp } from "./helpers";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// One app going through the workflow step by step: the tests share its state, in order.
describe("migrations workflow", () => {
  let app: TestApp;
  let databaseUrl: string;
  let first: string;

  beforeAll(async () => {
    app = await makeApp();
    databaseUrl = freshDatabaseUrl();
  });
  afterAll(cleanup);

  it("creates the first migration from an empty schema", async () => {
    const result = await createMigration({ ...app, name: "init" });
    expect(result.migrationName).toMatch(/^\d{14}_init$/);
    first = result.migrationName!;
    const sql = await readFile(path.join(app.migrationsDir, first, "migration.sql"), "utf8");
    expect(sql).toBe(result.sql);
    expect(sql).toContain(`CREATE TYPE "AccountKind" AS ENUM ('CHECKING', 'SAVINGS');`);
    expect(sql).toContain(`CREATE TABLE "Household"`);
    expect(sql).toContain(`CREATE TABLE "Account"`);
    expect(sql).toContain(`CREATE INDEX "Account_householdId_label_idx" ON "Account"("householdId", "label");`);
    expect(sql).toMatch(/ALTER TABLE "Account" ADD CONSTRAINT "Account_householdId_fkey" FOREIGN KEY \("householdId"\) REFERENCES "Household"\("id"\)/);
    expect(await readFile(path.join(app.migrationsDir, "migration_lock.toml"), "utf8")).toContain(`provider = "postgresql"`);
    expect(await readFile(path.join(app.migrationsDir, "schema.snapshot.prisma"), "utf8")).toBe(await readFile(app.schemaPath, "utf8"));
  });

  it("writes nothing when the schema has not changed", async () => {
    const before = await readdir(app.migrationsDir);
    const result = await createMigration({ ...app, name: "nothing" });
    expect(result).toEqual({ migrationName: null, sql: "" });
    expect(await readdir(app.migrationsDir)).toEqual(before);
  });

  it("creates the database and applies the migration, recording it like Prisma", async () => {
    const result = await applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir });
    expect(result.applied).toEqual([first]);

    const tables = await query<{ table_name: string }>(
      databaseUrl,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual(["Account", "Household", "_prisma_migrations"]);

    const rows = await query(databaseUrl, "SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations");
    const sql = await readFile(path.join(app.migrationsDir, first, "migration.sql"), "utf8");
    expect(rows).toEqual([{ migration_name: first, checksum: sha256(sql), finished_at: expect.any(Date), rolled_back_at: null, applied_steps_count: 1 }]);
  });

  it("does nothing on a second apply, with or without the engine", async () => {
    expect(await applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir })).toEqual({ applied: [] });
    expect(await applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir, alwaysUseEngine: true })).toEqual({ applied: [] });
    expect(await query(databaseUrl, "SELECT 1 FROM _prisma_migrations")).toHaveLength(1);
  });

  it("turns a schema edit into a second migration with the ALTER statements", async () => {
    await app.useSchema(FIXTURE_V2);
    const result = await createMigration({ ...app, name: "add currency" });
    expect(result.migrationName).toMatch(/^\d{14}_add_currency$/);
    expect(result.migrationName! > first).toBe(true); // sorts after the first even within the same second
    expect(result.sql).toContain(`ALTER TYPE "AccountKind" ADD VALUE 'CREDIT';`);
    expect(result.sql).toMatch(/ALTER TABLE "Account" ADD COLUMN\s+"currency" TEXT NOT NULL DEFAULT 'EUR'/);
    expect(result.sql).not.toContain("CREATE TABLE");
    expect(await readFile(path.join(app.migrationsDir, "schema.snapshot.prisma"), "utf8")).toBe(await readFile(FIXTURE_V2, "utf8"));

    expect(await applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir })).toEqual({ applied: [result.migrationName] });
    const columns = await query<{ column_name: string }>(
      databaseUrl,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'Account' AND column_name = 'currency'",
    );
    expect(columns).toHaveLength(1);
  });

  it("refuses to run when an applied migration was edited", async () => {
    await appendFile(path.join(app.migrationsDir, first, "migration.sql"), "\n-- edited after the fact\n");
    await expect(applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir })).rejects.toThrow(new RegExp(`${first}.*modified after being applied`));
  });
});

describe("applyMigrations concurrency", () => {
  afterAll(cleanup);

  it("applies each migration once when several processes start at the same time", async () => {
    const app = await makeApp();
    const { migrationName } = await createMigration({ ...app, name: "init" });
    const databaseUrl = freshDatabaseUrl(); // does not exist yet: they also race to create it
    const results = await Promise.all(Array.from({ length: 4 }, () => applyMigrations({ databaseUrl, migrationsDir: app.migrationsDir })));
    expect(results.flatMap((r) => r.applied)).toEqual([migrationName]);
    expect(await query(databaseUrl, "SELECT 1 FROM _prisma_migrations")).toHaveLength(1);
  });

  it("ensureDatabase is idempotent", async () => {
    const databaseUrl = freshDatabaseUrl();
    const created = await Promise.all([ensureDatabase(databaseUrl), ensureDatabase(databaseUrl), ensureDatabase(databaseUrl)]);
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await ensureDatabase(databaseUrl)).toBe(false);
  });
});
