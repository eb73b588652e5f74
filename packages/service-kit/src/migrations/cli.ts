// `hearth-migrations <new|check|deploy>`, run from an app directory holding
// prisma/schema.prisma and prisma/migrations/. Started by bin/hearth-migrations.mjs.
import path from "node:path";
import { appLayout } from "./app-layout";
import { applyMigrations } from "./apply-migrations";
import { checkDrift } from "./check-drift";
import { createMigration } from "./create-migration";
import { redactUrl } from "./database-url";

const USAGE = `Usage: hearth-migrations <command> [--dir <app dir>]

Run from an app directory (default: the current directory) with prisma/schema.prisma.

Commands:
  new <name>   Write prisma/migrations/<timestamp>_<name>/migration.sql from the changes to
               schema.prisma since the last migration (prints "no changes" if there are none).
  check        Verify that the migrations build exactly the schema of schema.prisma and that no
               schema change lacks a migration. Uses two throwaway databases on
               MIGRATIONS_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
  deploy       Apply pending migrations to DATABASE_URL (creating the database if needed).

Exit codes: 0 success / in sync, 1 drift found, 2 error.`;

export async function main(argv: string[], cwd: string, env: Record<string, string | undefined> = process.env): Promise<number> {
  const args = [...argv];
  let appDir = cwd;
  const dirFlag = args.indexOf("--dir");
  if (dirFlag !== -1) {
    const dir = args[dirFlag + 1];
    if (!dir) return usageError("--dir needs a path");
    appDir = path.resolve(cwd, dir);
    args.splice(dirFlag, 2);
  }
  const [command, ...rest] = args;
  const layout = appLayout(appDir);
  const adminUrl = env.MIGRATIONS_ADMIN_URL || undefined;

  try {
    switch (command) {
      case "new": {
        const name = rest.join("_");
        if (!name) return usageError("new needs a migration name, e.g. `hearth-migrations new add_budgets`");
        const result = await createMigration({ ...layout, name, ...(adminUrl ? { connectionUrl: adminUrl } : {}) });
        if (!result.migrationName) {
          console.log("no changes");
          return 0;
        }
        console.log(`Created ${path.relative(cwd, path.join(layout.migrationsDir, result.migrationName, "migration.sql"))}`);
        return 0;
      }
      case "check": {
        const started = performance.now();
        const result = await checkDrift({ ...layout, ...(adminUrl ? { adminUrl } : {}) });
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        if (result.inSync) {
          console.log(`in sync (${seconds} s)`);
          return 0;
        }
        console.error(`Migrations are NOT in sync with ${path.relative(cwd, layout.schemaPath) || layout.schemaPath}:\n`);
        console.error(result.problems.join("\n\n"));
        return 1;
      }
      case "deploy": {
        const databaseUrl = env.DATABASE_URL;
        if (!databaseUrl) return usageError("deploy needs DATABASE_URL");
        const { applied } = await applyMigrations({ databaseUrl, migrationsDir: layout.migrationsDir, log: (m) => console.log(m) });
        if (applied.length === 0) console.log(`No pending migrations on ${redactUrl(databaseUrl)}`);
        return 0;
      }
      case undefined:
      case "help":
      case "--help":
      case "-h":
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        return usageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (error) {
    console.error(`hearth-migrations ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

function usageError(message: string): number {
  console.error(`hearth-migrations: ${message}\n\n${USAGE}`);
  return 2;
}
