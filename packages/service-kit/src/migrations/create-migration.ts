// `hearth-migrations new`: the diff from the schema snapshot (the state the latest migration
// leads to) to the edited schema becomes a new migration folder.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { diffSchemas } from "./diff";
import { LOCKFILE, LOCKFILE_CONTENT, MIGRATION_FILE, readMigrations, SNAPSHOT_FILE } from "./migrations-dir";

export interface CreateMigrationOptions {
  schemaPath: string;
  migrationsDir: string;
  /** Free text; becomes the `_<name>` part of the folder name. */
  name: string;
  connectionUrl?: string;
  /** For tests. */
  now?: Date;
}

export interface CreateMigrationResult {
  /** The new folder's name, or null when the schema has no changes. */
  migrationName: string | null;
  sql: string;
}

export async function createMigration(options: CreateMigrationOptions): Promise<CreateMigrationResult> {
  const { schemaPath, migrationsDir } = options;
  const slug = migrationSlug(options.name);
  const schema = await readFile(schemaPath, "utf8");
  const existing = (await exists(migrationsDir)) ? await readMigrations(migrationsDir) : [];
  const snapshotPath = path.join(migrationsDir, SNAPSHOT_FILE);
  const snapshot = existing.length > 0 ? await readSnapshot(snapshotPath) : undefined;

  const sql = await diffSchemas({
    ...(snapshot === undefined ? { empty: true } : { fromDatamodel: snapshot, fromPath: snapshotPath }),
    toDatamodel: schema,
    toPath: schemaPath,
    ...(options.connectionUrl ? { connectionUrl: options.connectionUrl } : {}),
  });
  if (!sql) return { migrationName: null, sql: "" };

  const latest = existing.at(-1)?.name;
  const migrationName = `${nextTimestamp(options.now ?? new Date(), latest)}_${slug}`;
  await mkdir(path.join(migrationsDir, migrationName), { recursive: true });
  await writeFile(path.join(migrationsDir, migrationName, MIGRATION_FILE), sql);
  const lockfile = path.join(migrationsDir, LOCKFILE);
  if (!(await exists(lockfile))) await writeFile(lockfile, LOCKFILE_CONTENT);
  await writeFile(snapshotPath, schema);
  return { migrationName, sql };
}

async function readSnapshot(snapshotPath: string): Promise<string> {
  try {
    return await readFile(snapshotPath, "utf8");
  } catch (error) {
    throw new Error(
      `${snapshotPath} is missing. It holds the schema the latest migration leads to and is written by ` +
        "`hearth-migrations new`; restore it from version control.",
      { cause: error },
    );
  }
}

/** Like Prisma: anything but letters, digits and underscores becomes an underscore. */
export function migrationSlug(name: string): string {
  const slug = name
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 200);
  if (!slug) throw new Error(`Invalid migration name ${JSON.stringify(name)}: use letters, digits and underscores`);
  return slug;
}

/** UTC YYYYMMDDHHMMSS, bumped past the latest migration so that folders always sort in creation order. */
export function nextTimestamp(now: Date, latestMigration: string | undefined): string {
  let stamp = formatTimestamp(now);
  const latest = latestMigration?.match(/^(\d{14})/)?.[1];
  if (latest && stamp <= latest) {
    const t = latest.replace(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, "$1-$2-$3T$4:$5:$6Z");
    stamp = formatTimestamp(new Date(Date.parse(t) + 1000));
  }
  return stamp;
}

function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
