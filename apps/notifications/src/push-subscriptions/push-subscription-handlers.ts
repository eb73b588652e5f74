import type { RouteHandler } from "@hearth/service-kit";
import { toPushSubscriptionResource, type PushSubscriptionRepository } from "./push-subscription-repository";

/** The owner comes from the verified caller, never from the payload. */
export function createPushSubscriptionHandlers(subscriptions: PushSubscriptionRepository) {
  const register: RouteHandler<"pushSubscriptions.register"> = async ({ ctx, input }) =>
    toPushSubscriptionResource(
      await subscriptions.register({
        familyId: ctx.actor.familyId,
        userId: ctx.actor.userId,
        token: input.token,
        environment: input.environment,
        platform: input.platform,
      }),
    );
  return { "pushSubscriptions.register": register };
}
