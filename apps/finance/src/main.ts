import { runService } from "@hearth/service-kit";
import { createFinanceService } from "./app";
import { FinanceEnvSchema } from "./config";
import { MIGRATIONS_DIR, createFinanceDb } from "./db";

await runService({
  service: "finance",
  envSchema: FinanceEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createFinanceDb,
  createParts: ({ config, db, log }) =>
    createFinanceService({
      db,
      log,
      internalAuthSecret: config.INTERNAL_AUTH_SECRET,
      ledgerImport: config.LEDGER_IMPORT === "on",
      importFamilyBytes: config.IMPORT_FAMILY_MAX_MB * 1024 * 1024,
      providerConnections: { allowPrivateHosts: config.PROVIDER_ALLOW_PRIVATE_HOSTS },
    }),
});
