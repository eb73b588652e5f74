import type { PushSubscription } from "@hearth/contracts";
import type { NotificationsDb } from "../db";
import type { PushEnvironment, PushPlatform, PushSubscription as PushSubscriptionRow } from "../generated/prisma/client";

export function toPushSubscriptionResource(row: PushSubscriptionRow): PushSubscription {
  return { id: row.id, environment: row.environment, platform: row.platform, last_registered_at: row.lastRegisteredAt.toISOString() };
}

export interface Registration {
  familyId: string;
  userId: string;
  token: string;
  environment: PushEnvironment;
  platform: PushPlatform;
}

export function createPushSubscriptionRepository(db: NotificationsDb, now: () => Date = () => new Date()) {
  return {
    /** Spec rule 2: a token the user already registered is updated in place (same id), not duplicated. */
    register(registration: Registration) {
      const { familyId, userId, token, environment, platform } = registration;
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
