import { kafkaSecurityOf, kafkaTopicSettingsOf, runService } from "@hearth/service-kit";
import { createAuditService } from "./app";
import { AuditEnvSchema } from "./config";
import { MIGRATIONS_DIR, createAuditDb } from "./db";

await runService({
  service: "audit",
  envSchema: AuditEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createAuditDb,
  createParts: ({ config, db, log }) =>
    createAuditService({
      db,
      log,
      internalAuthSecret: config.INTERNAL_AUTH_SECRET,
      kafkaBrokers: config.KAFKA_BROKERS,
      kafkaSecurity: kafkaSecurityOf(config),
      kafkaTopicSettings: kafkaTopicSettingsOf(config),
    }),
});
