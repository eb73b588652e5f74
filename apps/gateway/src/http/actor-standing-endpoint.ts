import { ACTOR_STANDING_PATH, AppError } from "@hearth/contracts";
import { createInternalVerifier, INTERNAL_AUTH_HEADER } from "@hearth/service-kit";
import type { Express } from "express";
import type { ActorStandingOf } from "../identity/auth/actor-standing";

export interface ActorStandingDeps {
  /** Verifies the services' internal tokens addressed to the gateway. */
  internalAuthSecret: string;
  standingOf: ActorStandingOf;
}

/**
 * POST ACTOR_STANDING_PATH: a service asks whether the actor its internal token names still holds
 * (the assistant, before an answer and before a write tool). Only with a service's internal token
 * addressed to the gateway; never part of the public API (no route, no OpenAPI entry).
 */
export function mountActorStanding(app: Express, deps: ActorStandingDeps): void {
  const verify = createInternalVerifier(deps.internalAuthSecret, "gateway");
  app.post(ACTOR_STANDING_PATH, async (req, res, next) => {
    try {
      const header = req.get(INTERNAL_AUTH_HEADER);
      if (!header) throw new AppError("unauthorized", { message: "A service's internal token is required" });
      const context = await verify(header).catch((err: unknown) => {
        throw new AppError("unauthorized", { message: "The internal token is invalid", cause: err });
      });
      // Only the assistant asks: no other service needs to.
      if (context.caller !== "chat" || !context.actor) throw new AppError("unauthorized", { message: "The internal token names no actor of the assistant" });
      res.json(await deps.standingOf(context.actor));
    } catch (err) {
      next(err);
    }
  });
}
