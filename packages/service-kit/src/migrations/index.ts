export { applyMigrations, type ApplyMigrationsOptions, type ApplyMigrationsResult } from "./apply-migrations";
export { createMigration, type CreateMigrationOptions, type CreateMigrationResult } from "./create-migration";
export { checkDrift, type CheckDriftOptions, type CheckDriftResult } from "./check-drift";
export { ensureDatabase } from "./ensure-database";
export { diffSchemas, type DiffSchemasOptions } from "./diff";
export { appLayout, type AppLayout } from "./app-layout";
export { redactUrl } from "./database-url";
