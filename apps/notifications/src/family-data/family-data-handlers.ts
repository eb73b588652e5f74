import type { InternalHandlers } from "@hearth/service-kit";
import type { FamilyDataRepository } from "./family-data-repository";

/**
 * notifications' part of a family purge and of the reset status: the family's push
 * registrations (a handful per member) go in one statement; a device registers again at its next sign-in.
 */
export function createFamilyDataHandlers(data: FamilyDataRepository): InternalHandlers<"notifications"> {
  return {
    "familyData.purge": async ({ input }) => ({ done: true, deleted: await data.deletePushSubscriptions(input.familyId) }),
    "familyData.counts": async ({ input }) => ({ counts: { push_subscriptions: await data.countPushSubscriptions(input.familyId) } }),
  };
}
