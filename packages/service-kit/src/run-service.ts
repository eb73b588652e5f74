import type { Server } from "node:http";
import type { z } from "zod";
import { ConfigError, loadConfig, type BaseServiceEnvSchema } from "./config";
import { createLogger, type Logger } from "./logger";
import { applyMigrations } from "./migrations";
import { redactUrl } from "./migrations/database-url";
import { onShutdown } from "./shutdown";
import { startTelemetry } from "./telemetry";
import { listen } from "./trpc/service-server";
import { untilDatabaseAnswers } from "./wait-for-database";

type BaseConfig = z.output<typeof BaseServiceEnvSchema> & { PORT: number; HOST: string };

export interface ServiceParts {
  server: Server;
  /** Background work (consumers, relays) started after the server listens. */
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
  /** First step of a graceful shutdown: report not-ready while still serving (see SHUTDOWN_DRAIN_SECONDS). */
  drain?: () => void;
}

export interface RunServiceOptions<C extends BaseConfig, D extends { $disconnect(): Promise<void> }> {
  service: string;
  envSchema: z.ZodType<C>;
  migrationsDir: string;
  createDb: (databaseUrl: string) => D;
  createParts: (deps: { config: C; db: D; log: Logger }) => ServiceParts | Promise<ServiceParts>;
}

/**
 * The one start-up sequence of every service: config (fails naming every bad variable),
 * telemetry, logging, migrations, database, app, listen, graceful shutdown.
 */
export async function runService<C extends BaseConfig, D extends { $disconnect(): Promise<void> }>(options: RunServiceOptions<C, D>): Promise<void> {
  let config: C;
  try {
    config = loadConfig(options.envSchema);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    // A configuration mistake is the operator's to fix: say what, without a stack trace.
    console.error(`${options.service}: ${err.message}`);
    process.exit(1);
  }
  const telemetry = await startTelemetry({ serviceName: options.service, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const log = createLogger(options.service, config.LOG_LEVEL);
  const { applied } = await untilDatabaseAnswers(() => applyMigrations({ databaseUrl: config.DATABASE_URL, migrationsDir: options.migrationsDir }), {
    log,
    database: redactUrl(config.DATABASE_URL),
    timeoutMs: config.DATABASE_WAIT_SECONDS * 1000,
  });
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const db = options.createDb(config.DATABASE_URL);
  const parts = await options.createParts({ config, db, log });
  const running = await listen(parts.server, config.PORT, config.HOST);
  await parts.start?.();
  log.info({ url: running.url }, `${options.service} service listening`);
  // Closed in reverse: drain (not ready, still serving, so a load balancer stops sending first), stop accepting
  // requests, stop background work, then the database, then telemetry.
  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  const drain = async () => {
    parts.drain?.();
    if (drainMs > 0) log.info({ drain_ms: drainMs }, "draining before closing");
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  };
  onShutdown(log, [telemetry.shutdown, () => db.$disconnect(), async () => parts.stop?.(), running.close, drain], 10_000 + drainMs);
}
