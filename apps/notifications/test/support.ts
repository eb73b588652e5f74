import { startServiceUnderTest, type ServiceUnderTest } from "@hearth/test-kit";
import { createNotificationsService } from "../src/app";
import { MIGRATIONS_DIR, createNotificationsDb, type NotificationsDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningNotifications = ServiceUnderTest<NotificationsDb, ReturnType<typeof createNotificationsService>>;

/** The notifications service on a fresh, migrated database, listening on a free port. */
export function startNotifications(): Promise<RunningNotifications> {
  return startServiceUnderTest({
    service: "notifications",
    migrationsDir: MIGRATIONS_DIR,
    createDb: createNotificationsDb,
    create: createNotificationsService,
  });
}
