import type { Logger } from "@hearth/service-kit";
import { buildServiceRouter, createServiceServer } from "@hearth/service-kit";
import type { NotificationsDb } from "./db";
import { createPushSubscriptionHandlers } from "./push-subscriptions/push-subscription-handlers";
import { createPushSubscriptionRepository } from "./push-subscriptions/push-subscription-repository";

export interface NotificationsDeps {
  db: NotificationsDb;
  log: Logger;
  internalAuthSecret: string;
}

/** Wires the notifications service by hand: repository, handlers, router, server. Tests start exactly this. */
export function createNotificationsService(deps: NotificationsDeps) {
  const router = buildServiceRouter("notifications", {
    ...createPushSubscriptionHandlers(createPushSubscriptionRepository(deps.db)),
  });
  const server = createServiceServer({
    service: "notifications",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: async () => {
      await deps.db.$queryRaw`SELECT 1`;
    },
  });
  return { router, server };
}
