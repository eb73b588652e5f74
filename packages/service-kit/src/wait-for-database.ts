import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "./prisma-errors";

export interface WaitForDatabaseOptions {
  log: Pick<Logger, "warn">;
  /** The database waited for, as the logs may show it (no password). */
  database: string;
  timeoutMs: number;
}

const REPORT_EVERY_MS = 10_000;

/**
 * Runs `work` (a service's first touch of its database) until the database answers: one that is
 * still starting, or not created yet (npm start's embedded server, a container's), is waited for
 * rather than crashing the service. Any other failure, or `timeoutMs` passing, ends the wait with
 * the last error. Each wait is logged with its reason, so a wrong address does not wait in silence.
 */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, options: WaitForDatabaseOptions): Promise<T> {
  const started = Date.now();
  let reported = -Infinity;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const waited = Date.now() - started;
      if (!isDatabaseUnavailable(error) || waited >= options.timeoutMs) throw error;
      if (waited - reported >= REPORT_EVERY_MS) {
        reported = waited;
        options.log.warn({ database: options.database, reason: (error as Error).message, waited_ms: waited }, "waiting for the database");
      }
      // A refused connection costs nothing: retry often, so a database that just came up is used at once.
      await sleep(Math.min(50 * 2 ** attempt, 250));
    }
  }
}
