// Small helpers on postgresql:// URLs.

/** Where throwaway databases are created, and what `diff` connects to. */
export const DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export function adminUrlFromEnv(env: Record<string, string | undefined> = process.env): string {
  return env.MIGRATIONS_ADMIN_URL || DEFAULT_ADMIN_URL;
}

/** The database a URL names (its path). */
export function databaseNameOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ""));
  if (!name) throw new Error(`The database URL names no database: ${redactUrl(databaseUrl)}`);
  return name;
}

/** The same server and credentials, another database. */
export function withDatabaseName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** For messages: hides the password. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(invalid URL)";
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
