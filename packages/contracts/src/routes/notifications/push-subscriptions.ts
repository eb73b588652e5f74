import { defineResourceRoutes } from "../define-resource-routes";
import { PushSubscriptionSchema, RegisterPushSubscriptionBodySchema } from "../../resources/push-subscriptions";
import { WRITE } from "../../route-access";

export const pushSubscriptionsRoutes = defineResourceRoutes("notifications", "pushSubscriptions", {
  register: {
    method: "POST",
    path: "/api/v1/push_subscriptions",
    summary: "Register (or refresh) an iOS push token",
    tag: "Push subscriptions",
    body: RegisterPushSubscriptionBodySchema,
    response: PushSubscriptionSchema,
    status: 201,
    access: WRITE,
  },
});
