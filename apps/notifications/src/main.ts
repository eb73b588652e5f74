import { runService } from "@hearth/service-kit";
import { createNotificationsService } from "./app";
import { NotificationsEnvSchema } from "./config";
import { MIGRATIONS_DIR, createNotificationsDb } from "./db";

await runService({
  service: "notifications",
  envSchema: NotificationsEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createNotificationsDb,
  createParts: ({ config, db, log }) => createNotificationsService({ db, log, internalAuthSecret: config.INTERNAL_AUTH_SECRET }),
});
