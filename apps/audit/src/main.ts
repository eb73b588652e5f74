import { fileURLToPath } from "node:url";
import { runService } from "@hearth/service-kit";
import { createAuditService } from "./app";
import { AuditEnvSchema } from "./config";
import { createAuditDb } from "./db";

await runService({
  service: "audit",
  envSchema: AuditEnvSchema,
  migrationsDir: fileURLToPath(new URL("../prisma/migrations", import.meta.url)),
  createDb: createAuditDb,
  createParts: ({ config, db, log }) => createAuditService({ db, log, internalAuthSecret: config.INTERNAL_AUTH_SECRET, kafkaBrokers: config.KAFKA_BROKERS }),
});
