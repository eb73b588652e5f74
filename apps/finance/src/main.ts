import { fileURLToPath } from "node:url";
import { runService } from "@hearth/service-kit";
import { createFinanceService } from "./app";
import { FinanceEnvSchema } from "./config";
import { createFinanceDb } from "./db";

await runService({
  service: "finance",
  envSchema: FinanceEnvSchema,
  migrationsDir: fileURLToPath(new URL("../prisma/migrations", import.meta.url)),
  createDb: createFinanceDb,
  createParts: ({ config, db, log }) => createFinanceService({ db, log, internalAuthSecret: config.INTERNAL_AUTH_SECRET }),
});
