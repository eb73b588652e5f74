import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "./prisma-errors";

/**
 * Runs `work` (a service's first touch of its database) until the database answers: one that is
 * still starting, or not created yet (npm start's embedded server, a container's), is waited for
 * with backoff rather than crashing the service. Any other failure, or `timeoutMs` passing,
 * ends the wait with the last error.
 */
export async function untilDatabaseAnswers<T>(work: () => Promise<T>, options: { log: Pick<Logger, "info">; timeoutMs?: number }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() >= deadline) throw error;
      if (attempt === 0) options.log.info("waiting for the database");
      // A refused connection costs nothing: retry often, so a database that just came up is used at once.
      await sleep(Math.min(50 * 2 ** attempt, 250));
    }
  }
}
