import { buildServiceRouter, createServiceServer, databaseReadiness, type ServiceDeps } from "@hearth/service-kit";
import { createFamilyDataHandlers } from "./family-data/family-data-handlers";
import { createFamilyDataRepository } from "./family-data/family-data-repository";
import type { NotificationsDb } from "./db";
import { createPushSubscriptionHandlers } from "./push-subscriptions/push-subscription-handlers";
import { createPushSubscriptionRepository } from "./push-subscriptions/push-subscription-repository";

export type NotificationsDeps = ServiceDeps<NotificationsDb>;

/** Wires the notifications service by hand: repository, handlers, router, server. Tests start exactly this. */
export function createNotificationsService(deps: NotificationsDeps) {
  const router = buildServiceRouter(
    "notifications",
    {
      ...createPushSubscriptionHandlers(createPushSubscriptionRepository(deps.db)),
    },
    createFamilyDataHandlers(createFamilyDataRepository(deps.db)),
  );
  const server = createServiceServer({
    service: "notifications",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(deps.db),
  });
  return { router, server };
}
