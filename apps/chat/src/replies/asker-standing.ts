import { ACTOR_STANDING_PATH, ActorStandingSchema, type Actor, type ActorStanding } from "@hearth/contracts";
import { createInternalSigner, INTERNAL_AUTH_HEADER } from "@hearth/service-kit";

/** Whether the actor who asked a question still holds now (the gateway's ACTOR_STANDING_PATH). */
export type AskerStanding = (actor: Actor, requestId: string) => Promise<ActorStanding>;

/**
 * Asks the gateway, which owns credentials, with chat's internal token for the actor: an answer
 * runs after the request that asked for it, when the key may have been revoked, the user
 * suspended or demoted, or their assistant switched off. `gatewayUrl` is read at each call (a
 * test system knows it only once the gateway listens). Anything but an answer of the gateway's
 * throws: the answer then fails rather than run on a credential it could not check.
 */
export function createGatewayAskerStanding(gatewayUrl: () => string, internalAuthSecret: string, timeoutMs = 5_000): AskerStanding {
  const sign = createInternalSigner(internalAuthSecret, "chat");
  return async (actor, requestId) => {
    const res = await fetch(new URL(ACTOR_STANDING_PATH, gatewayUrl()), {
      method: "POST",
      headers: { "content-type": "application/json", [INTERNAL_AUTH_HEADER]: await sign("gateway", { actor, requestId }) },
      body: "{}",
      // The internal token goes to the gateway only, never where a redirect points.
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`the gateway answered ${res.status} to the asker's standing`);
    return ActorStandingSchema.parse(await res.json());
  };
}
