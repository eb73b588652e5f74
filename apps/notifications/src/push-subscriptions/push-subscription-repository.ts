import type { Actor, BodyOf } from "@hearth/contracts";
import type { NotificationsDb } from "../db";

/** A subscription belongs to the user who registered the token, within their family. */
export type SubscriptionOwner = Pick<Actor, "familyId" | "userId">;

export function createPushSubscriptionRepository(db: NotificationsDb, now: () => Date = () => new Date()) {
  return {
    /** Spec rule 2: a token the user already registered is updated in place (same id), not duplicated. */
    register({ familyId, userId }: SubscriptionOwner, registration: BodyOf<"pushSubscriptions.register">) {
      const { token, environment, platform } = registration;
      const lastRegisteredAt = now();
      return db.pushSubscription.upsert({
        where: { userId_token: { userId, token } },
        create: { familyId, userId, token, environment, platform, lastRegisteredAt },
        update: { familyId, environment, platform, lastRegisteredAt },
      });
    },
  };
}

export type PushSubscriptionRepository = ReturnType<typeof createPushSubscriptionRepository>;
