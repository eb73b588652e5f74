import { pushSubscriptionsRoutes } from "./push-subscriptions";

/** The notifications service. */
export const notificationsRoutes = { ...pushSubscriptionsRoutes };
