import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BaseServiceEnvSchema, ConfigError, kafkaSecurityOf, loadConfig } from "../../src";

const BASE = { DATABASE_URL: "postgresql://hearth@127.0.0.1:5432/x", INTERNAL_AUTH_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" };
const schema = BaseServiceEnvSchema.extend({ PORT: z.coerce.number().default(1) });

describe("Kafka security settings", () => {
  it("are off unless set (plaintext, as the embedded default and tests use)", () => {
    expect(kafkaSecurityOf(loadConfig(schema, BASE))).toEqual({});
  });

  it("pass TLS with a private CA and SASL SCRAM through to kafkajs", () => {
    const config = loadConfig(schema, {
      ...BASE,
      KAFKA_SSL_CA_FILE: "/etc/kafka/ca.pem",
      KAFKA_SASL_MECHANISM: "scram-sha-512",
      KAFKA_SASL_USERNAME: "hearth",
      KAFKA_SASL_PASSWORD: "pw",
    });
    expect(kafkaSecurityOf(config, (path) => `PEM of ${path}`)).toEqual({
      ssl: { ca: ["PEM of /etc/kafka/ca.pem"] },
      sasl: { mechanism: "scram-sha-512", username: "hearth", password: "pw" },
    });
    expect(kafkaSecurityOf(loadConfig(schema, { ...BASE, KAFKA_SSL: "true" }))).toEqual({ ssl: true });
  });

  it("refuse a half-configured SASL and an unknown mechanism at boot", () => {
    expect(() => loadConfig(schema, { ...BASE, KAFKA_SASL_USERNAME: "hearth" })).toThrow(/set all three or none/);
    try {
      loadConfig(schema, { ...BASE, KAFKA_SASL_MECHANISM: "gssapi", KAFKA_SASL_USERNAME: "u", KAFKA_SASL_PASSWORD: "p" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0]).toMatch(/^KAFKA_SASL_MECHANISM:/);
    }
  });
});
