import { z } from "zod";
import { KafkaSecurityEnvSchema, kafkaSecurityProblems, type KafkaSecurityEnv } from "./kafka-security";
import { KafkaTopicEnvSchema, kafkaTopicProblems, type KafkaTopicEnv } from "./kafka-topics";

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
  if (result.success) {
    const problems = [
      ...productionSecretProblems(schema, result.data),
      ...kafkaSecurityProblems(result.data as KafkaSecurityEnv),
      ...kafkaTopicProblems(result.data as Partial<KafkaTopicEnv>),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join(".") || "(environment)";
    const missing = issue.code === "invalid_type" && env[key] === undefined;
    return missing ? `${key} is required but not set` : `${key}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Schemas of secret variables: in production each must be a real secret, not a placeholder (see productionSecretProblems). */
const secretSchemas = z.registry<{ secret: true }>();

/** A secret variable: 32 characters or more everywhere; in production also no known default or placeholder. */
export function secretSchema() {
  return markSecret(z.string().min(32, { message: "must be at least 32 characters" }));
}

/** Marks a variable whose value is a secret, or a list of `{ secret }` (retired keys): production checks each one. */
export function markSecret<S extends z.ZodType>(schema: S): S {
  secretSchemas.add(schema, { secret: true });
  return schema;
}

/**
 * Values that are public: the development defaults docker-compose.yml once fell back to, and the
 * markers of a placeholder someone forgot to replace. Anyone who knows one can mint the internal
 * header for any user, or sign tokens.
 */
const KNOWN_DEFAULT_SECRETS = [
  "dev-only-internal-auth-secret-change-me-0000",
  "dev-only-jwt-secret-change-me-0000000000000",
  "dev-only-secrets-key-change-me-000000000000",
];
const PLACEHOLDER_MARKERS = ["change-me", "changeme", "change_me", "dev-only", "placeholder", "example", "your-secret", "replace-me"];
/** Fewer distinct characters than this is not random (e.g. 40 times "x"): 32 random hex characters have about 15. */
const MIN_DISTINCT_CHARACTERS = 10;

/** Why a secret must not be used in production, or null when it may. Never echoes the value. */
export function weakSecretReason(value: string): string | null {
  if (Buffer.byteLength(value, "utf8") < 32) return "is shorter than 32 bytes";
  if (KNOWN_DEFAULT_SECRETS.includes(value)) return "is a published development default";
  const lower = value.toLowerCase();
  const marker = PLACEHOLDER_MARKERS.find((text) => lower.includes(text));
  if (marker) return `looks like a placeholder (contains "${marker}")`;
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  return null;
}

/** In production, every variable declared with secretSchema() must be a real secret; names each one that is not. */
function productionSecretProblems(schema: z.ZodType, config: unknown): string[] {
  const values = config as Record<string, unknown>;
  if (values.NODE_ENV !== "production" || !(schema instanceof z.ZodObject)) return [];
  const problems: string[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!secretSchemas.has(field)) continue;
    const value = values[key];
    const secrets = typeof value === "string" ? [value] : Array.isArray(value) ? value.map((item) => (item as { secret?: unknown }).secret) : [];
    const reason = secrets.map((secret) => (typeof secret === "string" ? weakSecretReason(secret) : null)).find((found) => found !== null);
    if (reason) problems.push(`${key}: ${reason}; in production set a random secret (e.g. \`openssl rand -hex 32\`)`);
  }
  return problems;
}

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

/** Environment variables every service reads. */
export const BaseServiceEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, message: "must be a postgresql:// URL" }),
  INTERNAL_AUTH_SECRET: secretSchema(),
  KAFKA_BROKERS: z.preprocess(emptyToUndefined, z.string().optional()),
  ...KafkaSecurityEnvSchema.shape,
  /** Partitions, replication and min.insync.replicas of the topics a service creates (see kafka-topics.ts). */
  ...KafkaTopicEnvSchema.shape,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  /** How long a starting service waits for its database to answer before it gives up. */
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** On SIGTERM, how long /ready answers "draining" while requests are still served (behind a load balancer: its probe interval times its failure threshold). */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  /**
   * Bearer token `GET /metrics` requires. Unset: the gateway's public /metrics answers 404 and a
   * service's (internal port only) is open; set: 401 without `Authorization: Bearer <token>`.
   */
  METRICS_TOKEN: markSecret(z.preprocess(emptyToUndefined, z.string().min(32, { message: "must be at least 32 characters" }).optional())),
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
