// The migration runner every service calls at start-up: the equivalent of
// `prisma migrate deploy`, through Prisma's wasm schema engine.
import { stat } from "node:fs/promises";
import type pg from "pg";
import { withMigrationsLock } from "./advisory-lock";
import { databaseNameOf } from "./database-url";
import { ensureDatabase } from "./ensure-database";
import { type LocalMigration, matchesChecksum, readMigrations, toMigrationList } from "./migrations-dir";
import { NO_SCHEMA_FILTER, withSchemaEngine } from "./schema-engine";

export interface ApplyMigrationsOptions {
  databaseUrl: string;
  /** A Prisma-layout migrations folder (`prisma/migrations`). */
  migrationsDir: string;
  log?: (message: string) => void;
  /** How long to wait for another process applying migrations to the same database. */
  lockTimeoutMs?: number;
  /**
   * Start the schema engine even when the migrations table shows nothing to apply (by default
   * that check is made with a plain query, which is much cheaper than loading the engine).
   */
  alwaysUseEngine?: boolean;
}

export interface ApplyMigrationsResult {
  /** Names of the migrations this call applied, in order. */
  applied: string[];
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function applyMigrations(options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const { databaseUrl, migrationsDir } = options;
  const log = options.log ?? (() => {});
  const dirStat = await stat(migrationsDir).catch(() => undefined);
  if (!dirStat?.isDirectory()) throw new Error(`Migrations directory not found: ${migrationsDir}`);
  const migrations = await readMigrations(migrationsDir);
  const database = databaseNameOf(databaseUrl);

  if (await ensureDatabase(databaseUrl)) log(`Created database ${database}`);

  return withMigrationsLock(databaseUrl, options.lockTimeoutMs ?? 300_000, async (client) => {
    const rows = await readAppliedRows(client);
    assertAppliedUnchanged(migrations, rows, database);
    const pending = migrations.filter((m) => !rows.some((r) => r.migration_name === m.name && r.finished_at && !r.rolled_back_at));
    const failed = rows.some((r) => !r.finished_at && !r.rolled_back_at);
    if (pending.length === 0 && !failed && !options.alwaysUseEngine) return { applied: [] };

    if (pending.length > 0) log(`Applying ${pending.length} migration(s) to ${database}: ${pending.map((m) => m.name).join(", ")}`);
    const migrationsList = await toMigrationList(migrationsDir, migrations);
    const output = await withSchemaEngine({ databaseUrl }, (engine) =>
      engine.applyMigrations({ migrationsList, filters: NO_SCHEMA_FILTER }).catch((error: unknown) => {
        throw new Error(`Applying migrations to ${database} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }),
    );
    for (const name of output.appliedMigrationNames) log(`Applied migration ${name}`);
    return { applied: output.appliedMigrationNames };
  });
}

async function readAppliedRows(client: pg.Client): Promise<AppliedRow[]> {
  const exists = await client.query<{ exists: boolean }>("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists");
  if (!exists.rows[0]?.exists) return [];
  const result = await client.query<AppliedRow>("SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at");
  return result.rows;
}

/** An applied migration whose file changed since means the database and the code disagree. */
function assertAppliedUnchanged(migrations: LocalMigration[], rows: AppliedRow[], database: string): void {
  const edited = migrations.filter((migration) =>
    rows.some((row) => row.migration_name === migration.name && row.finished_at && !row.rolled_back_at && !matchesChecksum(migration.sql, row.checksum)),
  );
  if (edited.length === 0) return;
  const names = edited.map((m) => m.name).join(", ");
  throw new Error(
    `Migration(s) ${names} were modified after being applied to database ${database}: the checksum of migration.sql ` +
      `no longer matches _prisma_migrations. Never edit an applied migration; restore the file and add a new migration instead.`,
  );
}
