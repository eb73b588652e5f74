import { runService } from "@hearth/service-kit";
import { createChatService } from "./app";
import { ChatEnvSchema } from "./config";
import { MIGRATIONS_DIR, createChatDb } from "./db";

await runService({
  service: "chat",
  envSchema: ChatEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createChatDb,
  createParts: ({ config, db, log }) => createChatService({ db, log, internalAuthSecret: config.INTERNAL_AUTH_SECRET }),
});
