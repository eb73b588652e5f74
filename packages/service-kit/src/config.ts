import { z } from "zod";

/** Raised when the environment does not satisfy a service's config schema. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses the environment once, at boot. Fails listing every bad or missing variable by name,
 * so a misconfigured deployment stops with one message that says what to fix.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join(".") || "(environment)";
    const missing = issue.code === "invalid_type" && env[key] === undefined;
    return missing ? `${key} is required but not set` : `${key}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

/** Environment variables every service reads. */
export const BaseServiceEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, message: "must be a postgresql:// URL" }),
  INTERNAL_AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters" }),
  KAFKA_BROKERS: z.preprocess(emptyToUndefined, z.string().optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  /** How long a starting service waits for its database to answer before it gives up. */
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
});

export const PortSchema = z.coerce.number().int().min(0).max(65535);

export function kafkaBrokersOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((broker) => broker.trim())
    .filter(Boolean);
}

/** Environment of a tRPC service: the base plus where it listens. */
export function serviceEnvSchema(defaultPort: number) {
  return BaseServiceEnvSchema.extend({
    PORT: PortSchema.default(defaultPort),
    HOST: z.string().default("127.0.0.1"),
  });
}
