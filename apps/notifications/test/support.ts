import { startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { createNotificationsService } from "../src/app";
import { MIGRATIONS_DIR, createNotificationsDb, type NotificationsDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningNotifications = ServiceUnderTest<NotificationsDb, ReturnType<typeof createNotificationsService>>;

/** How the kit builds notifications. */
export const notificationsUnderTest = {
  service: "notifications",
  migrationsDir: MIGRATIONS_DIR,
  createDb: createNotificationsDb,
  create: createNotificationsService,
} as const;

/** What the kit's shared health and internal-auth suites call on notifications. */
export const notificationsBasics: ServiceBasics<NotificationsDb, RunningNotifications["parts"]> = {
  ...notificationsUnderTest,
  procedures: [
    {
      procedure: "pushSubscriptions.register",
      input: () => ({ token: "ab".repeat(32), environment: "sandbox", platform: "ios" }),
      answer: { toMatchObject: { environment: "sandbox" } },
      refusesReadOnlyKey: "insufficient_scope",
    },
  ],
  countRows: (db) => db.pushSubscription.count(),
};

/** The notifications service on a fresh, migrated database, listening on a free port. */
export function startNotifications(): Promise<RunningNotifications> {
  return startServiceUnderTest(notificationsUnderTest);
}
