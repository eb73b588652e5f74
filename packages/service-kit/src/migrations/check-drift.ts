// `hearth-migrations check`: do the migrations build exactly the database schema.prisma
// describes? The engine cannot read a live schema here, so both are built in throwaway
// databases and compared with pg_dump.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "./apply-migrations";
import { adminUrlFromEnv } from "./database-url";
import { diffSchemas } from "./diff";
import { readMigrations, SNAPSHOT_FILE } from "./migrations-dir";
import { compareDumps, dumpSchema } from "./schema-dump";
import { withThrowawayDatabases } from "./throwaway-database";

export interface CheckDriftOptions {
  schemaPath: string;
  migrationsDir: string;
  /** Server where the two throwaway databases are created (default: MIGRATIONS_ADMIN_URL or local postgres). */
  adminUrl?: string;
}

export interface CheckDriftResult {
  inSync: boolean;
  /** Human-readable, one entry per problem. */
  problems: string[];
}

export async function checkDrift(options: CheckDriftOptions): Promise<CheckDriftResult> {
  const adminUrl = options.adminUrl ?? adminUrlFromEnv();
  const schema = await readFile(options.schemaPath, "utf8");
  const hasDir = (await stat(options.migrationsDir).catch(() => undefined))?.isDirectory() ?? false;
  const migrations = hasDir ? await readMigrations(options.migrationsDir) : [];
  const problems: string[] = [];

  if (migrations.length > 0) {
    const snapshotProblem = await checkSnapshot(options, schema, adminUrl);
    if (snapshotProblem) problems.push(snapshotProblem);
  }

  await withThrowawayDatabases(adminUrl, 2, "hearth_drift", async ([fromMigrations, fromSchema]) => {
    if (!fromMigrations || !fromSchema) throw new Error("expected two databases");
    const buildFromMigrations = async (): Promise<void> => {
      if (migrations.length > 0) await applyMigrations({ databaseUrl: fromMigrations, migrationsDir: options.migrationsDir });
    };
    const buildFromSchema = async (): Promise<void> => {
      const script = await diffSchemas({ empty: true, toDatamodel: schema, toPath: options.schemaPath, connectionUrl: adminUrl });
      if (script) await executeScript(fromSchema, script);
    };
    const [migrated, built] = await Promise.allSettled([buildFromMigrations(), buildFromSchema()]);
    if (built.status === "rejected") throw built.reason;
    if (migrated.status === "rejected") {
      problems.push(`The migrations do not apply to an empty database: ${errorMessage(migrated.reason)}`);
      return;
    }
    const [left, right] = await Promise.all([dumpSchema(fromMigrations), dumpSchema(fromSchema)]);
    const comparison = compareDumps(left, right);
    if (comparison.equal) return;
    problems.push(
      [
        `The database the migrations build differs from ${path.basename(options.schemaPath)}.` +
          (migrations.length === 0 ? " There are no migrations yet: run `hearth-migrations new init`." : ""),
        ...section("Only in the database built by the migrations:", comparison.onlyInLeft),
        ...section(`Only in the database built from ${path.basename(options.schemaPath)}:`, comparison.onlyInRight),
      ].join("\n"),
    );
  });

  return { inSync: problems.length === 0, problems };
}

/** The snapshot must describe the same database as schema.prisma, or the next `new` is wrong. */
async function checkSnapshot(options: CheckDriftOptions, schema: string, adminUrl: string): Promise<string | undefined> {
  const snapshotPath = path.join(options.migrationsDir, SNAPSHOT_FILE);
  const snapshot = await readFile(snapshotPath, "utf8").catch(() => undefined);
  if (snapshot === undefined) {
    return `${snapshotPath} is missing (it is written by \`hearth-migrations new\`; restore it from version control).`;
  }
  const pending = await diffSchemas({
    fromDatamodel: snapshot,
    fromPath: snapshotPath,
    toDatamodel: schema,
    toPath: options.schemaPath,
    connectionUrl: adminUrl,
  });
  if (!pending) return undefined;
  return `${path.basename(options.schemaPath)} has changes no migration captures; run \`hearth-migrations new <name>\`. Pending SQL:\n${indent(pending.trim())}`;
}

async function executeScript(databaseUrl: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end().catch(() => {});
  }
}

function section(title: string, statements: string[]): string[] {
  return statements.length === 0 ? [] : [`  ${title}`, ...statements.map((s) => indent(s, "    "))];
}

function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((line) => (line ? prefix + line : line))
    .join("\n");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
