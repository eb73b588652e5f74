/**
 * A database refusal of the data itself (SQLSTATE classes 22 "data exception" and 23
 * "integrity constraint violation", or Prisma's codes for them): storing the same event again
 * can never work. Anything else (the database down, a timeout, a deadlock) may pass and is retried.
 */
const DATA_REFUSAL_PRISMA_CODES = new Set(["P2000", "P2004", "P2007", "P2011", "P2020"]);

function sqlStateOf(err: unknown): string | undefined {
  const meta = (err as { meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta;
  const code = meta?.driverAdapterError?.cause?.originalCode ?? meta?.code;
  return typeof code === "string" ? code : undefined;
}

export function isDataRefusal(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && DATA_REFUSAL_PRISMA_CODES.has(code)) return true;
  const sqlState = sqlStateOf(err);
  return sqlState !== undefined && (sqlState.startsWith("22") || sqlState.startsWith("23"));
}

/** What a refusal says, for a dead letter or an error message: the database's own words when it gave them. */
export function refusalText(err: unknown): string {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } } }).meta;
  const cause = meta?.driverAdapterError?.cause;
  if (cause && typeof cause.originalMessage === "string") return `${String(cause.originalCode)}: ${cause.originalMessage}`;
  return err instanceof Error ? err.message : String(err);
}
