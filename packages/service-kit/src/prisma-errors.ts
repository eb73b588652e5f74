/** Recognises Prisma/pg failures that have a meaning for the client, so they never surface as 500s. */

function codeOf(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A raw query's own PostgreSQL error code: Prisma wraps the failure as P2010, with the code in
 * `meta.driverAdapterError.cause.originalCode` under a driver adapter (ours) or `meta.code` without.
 */
function rawQueryCodeOf(err: unknown): string | undefined {
  if (codeOf(err) !== "P2010") return undefined;
  const meta = (err as { meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta;
  const code = meta?.driverAdapterError?.cause?.originalCode ?? meta?.code;
  return typeof code === "string" ? code : undefined;
}

/** A unique constraint was violated (Prisma P2002, PostgreSQL 23505, or a raw query's 23505). */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === "P2002" || code === "23505" || rawQueryCodeOf(err) === "23505";
}

/** A statement was cancelled by `statement_timeout` (PostgreSQL 57014), however Prisma wraps it. */
export function isStatementTimeout(err: unknown): boolean {
  return codeOf(err) === "57014" || (rawQueryCodeOf(err) ?? adapterOriginalCodeOf(err)) === "57014";
}

/** A statement gave up waiting for a lock after `lock_timeout` (PostgreSQL 55P03), however Prisma wraps it. */
export function isLockTimeout(err: unknown): boolean {
  return codeOf(err) === "55P03" || (rawQueryCodeOf(err) ?? adapterOriginalCodeOf(err)) === "55P03";
}

const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1017", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03", "08006", "08001", "3D000", "P1003"]);

/** The driver adapter's names for the same failures (`meta.driverAdapterError.cause.kind`), e.g. a refused connection. */
const UNAVAILABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "DatabaseDoesNotExist", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/** A driver adapter error's own PostgreSQL code, whatever Prisma code wraps it (a raw query's P2010 or another). */
function adapterOriginalCodeOf(err: unknown): string | undefined {
  const code = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta?.driverAdapterError?.cause?.originalCode;
  return typeof code === "string" ? code : undefined;
}

/**
 * P2028 is Prisma's transaction API error at large; only its "no connection within maxWait" case
 * means a saturated database (a retry after a moment is the answer). The others (a transaction
 * past its timeout, one used after it ended) are bugs, and stay 500s.
 */
function isTransactionStartTimeout(err: unknown): boolean {
  return codeOf(err) === "P2028" && err instanceof Error && /Unable to start a transaction in the given time/i.test(err.message);
}

function adapterKindOf(err: unknown): string | undefined {
  const kind = (err as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } }).meta?.driverAdapterError?.cause?.kind;
  return typeof kind === "string" ? kind : undefined;
}

/** The database could not be reached, went away, does not exist (yet) or has no connection free: the service is unavailable, not broken. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current && depth < 5; depth++) {
    const code = codeOf(current);
    if (code && UNAVAILABLE_CODES.has(code)) return true;
    const raw = rawQueryCodeOf(current) ?? adapterOriginalCodeOf(current);
    if (raw && UNAVAILABLE_CODES.has(raw)) return true;
    if (isTransactionStartTimeout(current)) return true;
    const kind = adapterKindOf(current);
    if (kind && UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
    if (
      current instanceof Error &&
      /ECONNREFUSED|Connection terminated|connect ETIMEDOUT|database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection due to administrator command|connection error and is not queryable/i.test(
        current.message,
      )
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
