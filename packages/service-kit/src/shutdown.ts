import type { Logger } from "pino";

type Closer = () => Promise<void> | void;

/**
 * Registers SIGINT/SIGTERM handlers that run closers in reverse order of registration
 * (stop accepting work first, close the database last), then exit.
 */
export function onShutdown(log: Logger, closers: Closer[], timeoutMs = 10_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const timer = setTimeout(() => {
      log.error("shutdown timed out; exiting");
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    for (const close of [...closers].reverse()) {
      try {
        await close();
      } catch (err) {
        log.error({ err }, "error during shutdown");
      }
    }
    process.exit(0);
  };
  // `on`, not `once`: a repeated signal (a supervisor relaying Ctrl-C) must not find no
  // listener and kill the process half-way through its shutdown.
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}
