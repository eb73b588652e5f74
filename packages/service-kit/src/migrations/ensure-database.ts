import pg from "pg";
import { databaseNameOf, quoteIdentifier, redactUrl, withDatabaseName } from "./database-url";

const INVALID_CATALOG_NAME = "3D000"; // database does not exist
const DUPLICATE_DATABASE = "42P04";
const UNIQUE_VIOLATION = "23505"; // two concurrent CREATE DATABASE: the loser may get this instead
const CONNECT_TIMEOUT_MS = 5_000;

function pgCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/**
 * Creates the database `databaseUrl` names if it does not exist, through the `postgres`
 * database of the same server. Returns whether this call created it. Safe when several
 * processes race to create it.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseNameOf(databaseUrl);
  // A host that never answers must fail this attempt, not hang it (the caller may retry).
  const probe = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await probe.connect();
    return false;
  } catch (error) {
    if (pgCode(error) !== INVALID_CATALOG_NAME) throw error;
  } finally {
    await probe.end().catch(() => {});
  }

  const admin = new pg.Client({ connectionString: withDatabaseName(databaseUrl, "postgres"), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Database ${name} does not exist and the postgres database of ${redactUrl(databaseUrl)} is unreachable to create it: ${String(error)}`, {
      cause: error,
    });
  }
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    return true;
  } catch (error) {
    const code = pgCode(error);
    if (code === DUPLICATE_DATABASE || code === UNIQUE_VIOLATION) return false;
    throw error;
  } finally {
    await admin.end().catch(() => {});
  }
}

/** Drops a database, disconnecting its sessions. No error when it is missing. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  } finally {
    await admin.end().catch(() => {});
  }
}
