import type { PushSubscription } from "@hearth/contracts";
import type { PushSubscription as PushSubscriptionRow } from "../generated/prisma/client";

export function toPushSubscriptionResource(row: PushSubscriptionRow): PushSubscription {
  return { id: row.id, environment: row.environment, platform: row.platform, last_registered_at: row.lastRegisteredAt.toISOString() };
}
