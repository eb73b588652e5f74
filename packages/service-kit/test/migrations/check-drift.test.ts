import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { checkDrift, createMigration } from "../../src/migrations/index";
import { ADMIN_URL, cleanup, FIXTURE_V2, makeApp } from "./helpers";

/** Throwaway databases this process left behind (their names carry the pid). */
async function leftoverThrowawayDatabases(): Promise<string[]> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const result = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`hearth_drift_${process.pid}_%`]);
    return result.rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

describe("checkDrift", () => {
  afterAll(cleanup);

  it("passes when the migrations match the schema, and drops its throwaway databases", async () => {
    const app = await makeApp();
    await createMigration({ ...app, name: "init" });
    await expect(checkDrift(app)).resolves.toEqual({ inSync: true, problems: [] });
    expect(await leftoverThrowawayDatabases()).toEqual([]);
  });

  it("passes after a migration that adds a column mid-model and an enum value mid-enum", async () => {
    const app = await makeApp();
    await createMigration({ ...app, name: "init" });
    await app.useSchema(FIXTURE_V2);
    await createMigration({ ...app, name: "add_currency" });
    await expect(checkDrift(app)).resolves.toEqual({ inSync: true, problems: [] });
  });

  it("fails when the schema was edited without a migration", async () => {
    const app = await makeApp();
    await createMigration({ ...app, name: "init" });
    await app.useSchema(FIXTURE_V2);
    const result = await checkDrift(app);
    expect(result.inSync).toBe(false);
    const report = result.problems.join("\n");
    expect(report).toContain("has changes no migration captures");
    expect(report).toContain("The database the migrations build differs from schema.prisma");
    expect(report).toContain("currency");
    expect(await leftoverThrowawayDatabases()).toEqual([]);
  });

  it("fails when a migration does not build what the snapshot says (hand-edited SQL)", async () => {
    const app = await makeApp();
    const { migrationName } = await createMigration({ ...app, name: "init" });
    const file = path.join(app.migrationsDir, migrationName!, "migration.sql");
    const sql = await readFile(file, "utf8");
    await writeFile(file, sql.replace(/-- CreateIndex\nCREATE INDEX "Account_householdId_label_idx"[^\n]*\n/, ""));
    const result = await checkDrift(app);
    expect(result.inSync).toBe(false);
    expect(result.problems).toHaveLength(1); // the snapshot agrees with schema.prisma; the database does not
    expect(result.problems[0]).toContain("Account_householdId_label_idx");
  });

  it("passes with a migration's functions and triggers, which schema.prisma cannot describe", async () => {
    const app = await makeApp();
    const { migrationName } = await createMigration({ ...app, name: "init" });
    const file = path.join(app.migrationsDir, migrationName!, "migration.sql");
    // A body's semicolons written \073: the migration runner splits a script at every semicolon.
    const trigger = `
CREATE FUNCTION "label_upper"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW.label := upper(NEW.label)\\073
  RETURN NEW\\073
END';
CREATE TRIGGER "account_label_upper" BEFORE INSERT ON "Account" FOR EACH ROW EXECUTE FUNCTION label_upper();
`;
    await writeFile(file, (await readFile(file, "utf8")) + trigger);
    await expect(checkDrift(app)).resolves.toEqual({ inSync: true, problems: [] });
  });

  it("reports migrations that do not apply, and still drops its databases", async () => {
    const app = await makeApp();
    const { migrationName } = await createMigration({ ...app, name: "init" });
    await writeFile(path.join(app.migrationsDir, migrationName!, "migration.sql"), "CREATE TABLE broken (;\n");
    const result = await checkDrift(app);
    expect(result.inSync).toBe(false);
    expect(result.problems.join("\n")).toContain("The migrations do not apply to an empty database");
    expect(await leftoverThrowawayDatabases()).toEqual([]);
  });

  it("fails when the snapshot is missing", async () => {
    const app = await makeApp();
    await createMigration({ ...app, name: "init" });
    await rm(path.join(app.migrationsDir, "schema.snapshot.prisma"));
    const result = await checkDrift(app);
    expect(result.inSync).toBe(false);
    expect(result.problems.join("\n")).toContain("schema.snapshot.prisma is missing");
    expect(await readdir(app.migrationsDir)).not.toContain("schema.snapshot.prisma");
  });
});
