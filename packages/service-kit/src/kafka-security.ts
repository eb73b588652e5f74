import { readFileSync } from "node:fs";
import type { KafkaConfig, SASLOptions } from "kafkajs";
import { z } from "zod";

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/**
 * How a service authenticates to Kafka, passed through to kafkajs: TLS (optionally with a private CA)
 * and SASL PLAIN or SCRAM. Unset = plaintext without authentication (the embedded default and tests).
 */
export const KafkaSecurityEnvSchema = z.object({
  /** "true" to connect with TLS. */
  KAFKA_SSL: optional(z.enum(["true", "false"])),
  /** PEM file of the CA that signed the brokers' certificates (implies TLS). */
  KAFKA_SSL_CA_FILE: optional(z.string()),
  KAFKA_SASL_MECHANISM: optional(z.enum(["plain", "scram-sha-256", "scram-sha-512"])),
  KAFKA_SASL_USERNAME: optional(z.string()),
  KAFKA_SASL_PASSWORD: optional(z.string()),
});
export type KafkaSecurityEnv = z.output<typeof KafkaSecurityEnvSchema>;

/** The kafkajs `ssl`/`sasl` options; each setting either complete or absent. */
export type KafkaSecurity = Pick<KafkaConfig, "ssl" | "sasl">;

/** Problems with a half-configured SASL, named by variable (for the config check at boot). */
export function kafkaSecurityProblems(env: KafkaSecurityEnv): string[] {
  const sasl = [env.KAFKA_SASL_MECHANISM, env.KAFKA_SASL_USERNAME, env.KAFKA_SASL_PASSWORD];
  if (sasl.every((value) => value === undefined) || sasl.every((value) => value !== undefined)) return [];
  return ["KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: set all three or none"];
}

export function kafkaSecurityOf(env: KafkaSecurityEnv, readFile: (path: string) => string = (path) => readFileSync(path, "utf8")): KafkaSecurity {
  const security: KafkaSecurity = {};
  if (env.KAFKA_SSL_CA_FILE) security.ssl = { ca: [readFile(env.KAFKA_SSL_CA_FILE)] };
  else if (env.KAFKA_SSL === "true") security.ssl = true;
  if (env.KAFKA_SASL_MECHANISM && env.KAFKA_SASL_USERNAME && env.KAFKA_SASL_PASSWORD) {
    const credentials = { username: env.KAFKA_SASL_USERNAME, password: env.KAFKA_SASL_PASSWORD };
    const sasl: Record<typeof env.KAFKA_SASL_MECHANISM, SASLOptions> = {
      plain: { mechanism: "plain", ...credentials },
      "scram-sha-256": { mechanism: "scram-sha-256", ...credentials },
      "scram-sha-512": { mechanism: "scram-sha-512", ...credentials },
    };
    security.sasl = sasl[env.KAFKA_SASL_MECHANISM];
  }
  return security;
}
