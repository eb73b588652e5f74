import type { RouteHandler } from "@hearth/service-kit";
import type { PushSubscriptionRepository } from "./push-subscription-repository";
import { toPushSubscriptionResource } from "./push-subscription-resource";

/** The owner comes from the verified caller, never from the payload. */
export function createPushSubscriptionHandlers(subscriptions: PushSubscriptionRepository) {
  const register: RouteHandler<"pushSubscriptions.register"> = async ({ ctx, input }) =>
    toPushSubscriptionResource(await subscriptions.register({ familyId: ctx.actor.familyId, userId: ctx.actor.userId }, input));
  return { "pushSubscriptions.register": register };
}
