import { startServiceUnderTest, type ServiceUnderTest } from "@hearth/test-kit";
import { createFinanceService } from "../src/app";
import { MIGRATIONS_DIR, createFinanceDb, type FinanceDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningFinance = ServiceUnderTest<FinanceDb, ReturnType<typeof createFinanceService>>;

/** The finance service on a fresh, migrated database, listening on a free port. */
export function startFinance(): Promise<RunningFinance> {
  return startServiceUnderTest({ service: "finance", migrationsDir: MIGRATIONS_DIR, createDb: createFinanceDb, create: createFinanceService });
}
