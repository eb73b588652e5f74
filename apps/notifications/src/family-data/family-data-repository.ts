import type { NotificationsDb } from "../db";

/** notifications' rows of a family, for a purge and the reset status. */
export function createFamilyDataRepository(db: NotificationsDb) {
  return {
    deletePushSubscriptions: (familyId: string): Promise<number> => db.$executeRaw`DELETE FROM push_subscriptions WHERE family_id = ${familyId}::uuid`,
    countPushSubscriptions: (familyId: string): Promise<number> => db.pushSubscription.count({ where: { familyId } }),
  };
}
export type FamilyDataRepository = ReturnType<typeof createFamilyDataRepository>;
