import { createServiceClient, runService } from "@hearth/service-kit";
import { createChatService } from "./app";
import { providersOf } from "./assistant/providers-of-config";
import { ChatEnvSchema } from "./config";
import { createGatewayAskerStanding } from "./replies/asker-standing";
import { MIGRATIONS_DIR, createChatDb } from "./db";

await runService({
  service: "chat",
  envSchema: ChatEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createChatDb,
  createParts: ({ config, db, log }) =>
    createChatService({
      db,
      log,
      internalAuthSecret: config.INTERNAL_AUTH_SECRET,
      finance: createServiceClient({ service: "finance", url: config.FINANCE_URL, caller: "chat", internalAuthSecret: config.INTERNAL_AUTH_SECRET }),
      askerStanding: createGatewayAskerStanding(() => config.GATEWAY_URL, config.INTERNAL_AUTH_SECRET),
      assistant: { providers: providersOf(config), replyTimeoutMs: config.ASSISTANT_REPLY_TIMEOUT_SECONDS * 1000 },
    }),
});
