/** A database name as a quoted SQL identifier. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The server URL `url` with another database. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(name)}`;
  return parsed.toString();
}
