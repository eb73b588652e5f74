import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cleanup, FIXTURE_V2, freshDatabaseUrl, makeApp, query } from "./helpers";

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../bin/hearth-migrations.mjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin the way `npm run <script> -w apps/x` does: from the app directory. */
function cli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("hearth-migrations CLI", () => {
  afterAll(cleanup);

  it("new, check, deploy from an app directory", async () => {
    const app = await makeApp();

    const created = await cli(app.dir, ["new", "init"]);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created prisma\/migrations\/\d{14}_init\/migration\.sql$/m) });
    expect(await cli(app.dir, ["new", "again"])).toMatchObject({ code: 0, stdout: "no changes\n" });
    expect((await readdir(app.migrationsDir)).sort()).toEqual([expect.stringMatching(/_init$/), "migration_lock.toml", "schema.snapshot.prisma"]);

    expect(await cli(app.dir, ["check"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^in sync/) });

    const databaseUrl = freshDatabaseUrl();
    const deployed = await cli(app.dir, ["deploy"], { DATABASE_URL: databaseUrl });
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toMatch(/Applied migration \d{14}_init/);
    expect(await query(databaseUrl, "SELECT migration_name FROM _prisma_migrations")).toHaveLength(1);

    await app.useSchema(FIXTURE_V2);
    const drift = await cli(app.dir, ["check"]);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain("NOT in sync");
    expect(drift.stderr).toContain("currency");
  });

  it("accepts --dir and rejects unknown commands", async () => {
    const app = await makeApp();
    expect(await cli(path.dirname(app.dir), ["new", "init", "--dir", path.basename(app.dir)])).toMatchObject({ code: 0 });
    expect(await cli(app.dir, ["frobnicate"])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command") });
    expect(await cli(app.dir, ["deploy"], { DATABASE_URL: "" })).toMatchObject({ code: 2, stderr: expect.stringContaining("DATABASE_URL") });
  });
});
